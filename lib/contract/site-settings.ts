/**
 * The site settings of docs/contract.md §5.6 as data: group, name, type and the limits of each
 * value. One description serves both sides: the companion server checks and coerces
 * `POST /api/admin/settings` with it, and the admin console generates its forms from it (labels and
 * help come from the i18n catalogue `admin.setting.<name>`). Settings a server sends that are not
 * described here are still shown, under their own names, with a control chosen by the value's type.
 */
import { OAUTH2_PROVIDERS, type OAuth2Provider } from './oauth2';

/** How a setting's value is typed on the wire. `int` is a whole number (Go int64). */
export type SettingType = 'bool' | 'int' | 'string';

/** One site setting (§5.6). */
export interface SiteSettingSpec {
  name: string;
  group: string;
  type: SettingType;
  /** Inclusive bounds of an `int`. */
  min?: number;
  max?: number;
  /** The only values a `string` may take (compared case-insensitively, stored as listed). */
  choices?: readonly string[];
  /**
   * The read-only setting that lists (comma-separated) which `choices` this server can use; the
   * first choice always can. The console offers the others disabled, with the reason.
   */
  choicesAvailableIn?: string;
  /** A `string` that must be empty or an http(s) URL. */
  url?: boolean;
  /** Shown as a password field (never echoed in the console's inputs as plain text). */
  secret?: boolean;
  /** A comma-separated list, edited in a text area. */
  list?: boolean;
  /** Shown, never changed (`version`, `database_version`). */
  readOnly?: boolean;
  /** Unit of an `int`, for the label's suffix. */
  unit?: 'hours' | 'rooms' | 'movies' | 'conversions' | 'px' | 'minutes' | 'gigabytes';
  /**
   * Kept and answered by the companion server but used only by a SyncTV server (RTMP playback, P2P,
   * the proxy cache, reclaiming idle rooms from memory): the console says it changes nothing there.
   */
  syncTvOnly?: boolean;
}

/** The groups of §5.6 in the console's order; `oauth2_<p>` groups follow. */
export const SETTING_GROUPS = ['user', 'room', 'proxy', 'email', 'server', 'rtmp', 'database'] as const;
export type SettingGroup = (typeof SETTING_GROUPS)[number] | `oauth2_${OAuth2Provider}`;

/** `GET /api/admin/settings/oauth2` answers every `oauth2_<p>` group (§4.6). */
export const OAUTH2_GROUP_PREFIX = 'oauth2_';

/** The `oauth2_<p>` group of a provider. */
export function oauth2Group(provider: OAuth2Provider): SettingGroup {
  return `${OAUTH2_GROUP_PREFIX}${provider}`;
}

const bool = (group: string, name: string, extra: Partial<SiteSettingSpec> = {}): SiteSettingSpec => ({ name, group, type: 'bool', ...extra });
const int = (group: string, name: string, min: number, max: number, extra: Partial<SiteSettingSpec> = {}): SiteSettingSpec => ({
  name,
  group,
  type: 'int',
  min,
  max,
  ...extra,
});
const text = (group: string, name: string, extra: Partial<SiteSettingSpec> = {}): SiteSettingSpec => ({ name, group, type: 'string', ...extra });

/** Largest int64 that a JSON number carries exactly. */
const MAX_INT = Number.MAX_SAFE_INTEGER;

/** Every setting of §5.6, by group, in the console's order. */
export const SITE_SETTING_SPECS: readonly SiteSettingSpec[] = [
  bool('user', 'enable_guest'),
  bool('user', 'disable_user_signup'),
  bool('user', 'signup_need_review'),
  bool('user', 'enable_password_signup'),
  bool('user', 'password_signup_need_review'),
  int('user', 'user_max_room_count', 0, MAX_INT, { unit: 'rooms' }),
  bool('room', 'disable_create_room'),
  bool('room', 'create_room_need_review'),
  bool('room', 'room_must_need_pwd'),
  bool('room', 'room_must_no_need_pwd'),
  int('room', 'room_ttl', 1, MAX_INT, { unit: 'hours', syncTvOnly: true }),
  // A companion-server extension (v0.9.11 has no limit): movies and folders one room may hold.
  int('room', 'room_max_movie_count', 1, 1_000_000, { unit: 'movies' }),
  bool('proxy', 'movie_proxy'),
  bool('proxy', 'live_proxy'),
  bool('proxy', 'allow_proxy_to_local'),
  bool('proxy', 'proxy_cache_enable', { syncTvOnly: true }),
  // Companion-server extensions (docs/transcode.md): converting what browsers cannot decode.
  bool('proxy', 'movie_convert'),
  int('proxy', 'convert_max_conversions', 1, 64, { unit: 'conversions' }),
  int('proxy', 'convert_max_per_user', 1, 64, { unit: 'conversions' }),
  int('proxy', 'convert_max_height', 144, 4320, { unit: 'px' }),
  int('proxy', 'convert_max_minutes', 1, 1440, { unit: 'minutes' }),
  int('proxy', 'convert_max_gigabytes', 1, 100_000, { unit: 'gigabytes' }),
  text('proxy', 'convert_encoder', { choices: ['software', 'vaapi', 'nvenc', 'qsv'], choicesAvailableIn: 'convert_hardware' }),
  text('proxy', 'convert_ffmpeg', { readOnly: true }),
  text('proxy', 'convert_hardware', { readOnly: true }),
  bool('email', 'enable_email'),
  bool('email', 'email_disable_user_signup'),
  bool('email', 'email_signup_need_review'),
  bool('email', 'email_signup_white_list_enable'),
  text('email', 'email_signup_white_list', { list: true }),
  text('email', 'smtp_host'),
  int('email', 'smtp_port', 1, 65535),
  text('email', 'smtp_protocol', { choices: ['TLS', 'SSL', 'TCP'] }),
  text('email', 'smtp_username'),
  text('email', 'smtp_password', { secret: true }),
  text('email', 'smtp_from'),
  int('email', 'smtp_pool_size', 1, 100),
  text('server', 'host', { url: true }),
  text('server', 'p2p_zone', { syncTvOnly: true }),
  text('server', 'version', { readOnly: true }),
  bool('rtmp', 'rtmp_player', { syncTvOnly: true }),
  text('rtmp', 'custom_publish_host'),
  bool('rtmp', 'ts_disguised_as_png'),
  text('database', 'database_version', { readOnly: true }),
  ...OAUTH2_PROVIDERS.flatMap((provider) => {
    const group = oauth2Group(provider);
    const name = (suffix: string) => `oauth2_${provider}_${suffix}`;
    return [
      bool(group, name('enabled')),
      text(group, name('client_id')),
      text(group, name('client_secret'), { secret: true }),
      text(group, name('redirect_url'), { url: true }),
      bool(group, name('disable_user_signup')),
      bool(group, name('signup_need_review')),
    ];
  }),
];

const SPEC_BY_NAME = new Map(SITE_SETTING_SPECS.map((spec) => [spec.name, spec]));

/** The description of `name`, or undefined for a setting this client does not know. */
export function settingSpec(name: string): SiteSettingSpec | undefined {
  return SPEC_BY_NAME.get(name);
}

/** A setting's value on the wire. */
export type SettingValue = boolean | number | string;

/** Why a value does not fit its setting. */
export type SettingProblem =
  | { kind: 'bool' }
  | { kind: 'int' }
  | { kind: 'range'; min: number; max: number }
  | { kind: 'choice'; choices: readonly string[] }
  | { kind: 'url' }
  | { kind: 'text' };

/**
 * Coerces a value sent for `spec` to its type, as v0.9.11 does (`"true"` and `true` are both a
 * boolean, `"48"` and `48` both an int), and checks its limits. Strings are trimmed.
 * Returns `{value}` or `{problem}`.
 */
export function coerceSetting(spec: SiteSettingSpec, raw: unknown): { value: SettingValue } | { problem: SettingProblem } {
  if (spec.type === 'bool') {
    if (typeof raw === 'boolean') return { value: raw };
    if (raw === 'true' || raw === '1' || raw === 1) return { value: true };
    if (raw === 'false' || raw === '0' || raw === 0) return { value: false };
    return { problem: { kind: 'bool' } };
  }
  if (spec.type === 'int') {
    const value = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*-?\d+\s*$/.test(raw) ? Number(raw) : NaN;
    if (!Number.isSafeInteger(value)) return { problem: { kind: 'int' } };
    const min = spec.min ?? -MAX_INT;
    const max = spec.max ?? MAX_INT;
    if (value < min || value > max) return { problem: { kind: 'range', min, max } };
    return { value };
  }
  if (typeof raw !== 'string' && typeof raw !== 'number') return { problem: { kind: 'text' } };
  let value = String(raw).trim();
  if (spec.choices) {
    const choice = spec.choices.find((candidate) => candidate.toLowerCase() === value.toLowerCase());
    if (!choice) return { problem: { kind: 'choice', choices: spec.choices } };
    value = choice;
  }
  if (spec.url && value !== '' && !/^https?:\/\/[^\s/]+/i.test(value)) return { problem: { kind: 'url' } };
  if (spec.list) value = value.split(/[,\s]+/).filter(Boolean).join(',');
  return { value };
}

/** The server's error text for a problem (catalogued in lib/i18n/messages/errors.ts by pattern). */
export function settingProblemText(name: string, problem: SettingProblem): string {
  switch (problem.kind) {
    case 'bool':
      return `setting ${name} must be true or false`;
    case 'int':
      return `setting ${name} must be a whole number`;
    case 'range':
      return `setting ${name} must be between ${problem.min} and ${problem.max}`;
    case 'choice':
      return `setting ${name} must be one of ${problem.choices.join(', ')}`;
    case 'url':
      return `setting ${name} must start with http:// or https://`;
    case 'text':
      return `setting ${name} must be text`;
  }
}

/** Settings that may not both be on (§5.6 group room). */
export const EXCLUSIVE_SETTINGS = [['room_must_need_pwd', 'room_must_no_need_pwd']] as const;

/**
 * True when `publicSettings` come from the companion server: it answers `GET /api/public/settings`
 * with its extensions (docs/compatibility.md "How the companion server differs"), a SyncTV server
 * without them.
 */
export function isCompanionServer(publicSettings: { chatHistory?: number } | null | undefined): boolean {
  return typeof publicSettings?.chatHistory === 'number';
}
