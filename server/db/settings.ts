/**
 * Site settings (docs/contract.md §5.6) in the `settings` table, one row per name with a JSON
 * value. Every known setting is written with its default on first start, so the table shows the
 * effective configuration. The companion server defaults `enable_password_signup` to true (§11 f).
 */
import { OAUTH2_PROVIDERS, type OAuth2Provider } from '@/lib/contract/oauth2';
import type { Db } from './schema';

/** Per-provider OAuth2 settings (§5.6 group `oauth2_<provider>`). */
export type OAuth2Settings = {
  [P in OAuth2Provider as `oauth2_${P}_enabled` | `oauth2_${P}_disable_user_signup` | `oauth2_${P}_signup_need_review`]: boolean;
} & {
  [P in OAuth2Provider as `oauth2_${P}_client_id` | `oauth2_${P}_client_secret` | `oauth2_${P}_redirect_url`]: string;
};

/** The `oauth2_<p>_*` setting names of one provider. */
export function oauth2SettingNames(provider: OAuth2Provider) {
  return {
    enabled: `oauth2_${provider}_enabled`,
    clientId: `oauth2_${provider}_client_id`,
    clientSecret: `oauth2_${provider}_client_secret`,
    redirectUrl: `oauth2_${provider}_redirect_url`,
    disableSignup: `oauth2_${provider}_disable_user_signup`,
    signupNeedReview: `oauth2_${provider}_signup_need_review`,
  } as const;
}

/** The OAuth2 settings of one provider, read from the effective site settings. */
export function oauth2Config(site: SiteSettings, provider: OAuth2Provider) {
  const names = oauth2SettingNames(provider);
  return {
    enabled: site[names.enabled],
    clientId: site[names.clientId],
    clientSecret: site[names.clientSecret],
    redirectUrl: site[names.redirectUrl],
    disableSignup: site[names.disableSignup],
    signupNeedReview: site[names.signupNeedReview],
  };
}

/** SMTP transport of the email group (§5.6): `smtp_protocol` is TLS (STARTTLS), SSL (implicit TLS) or TCP (plain). */
export const SMTP_PROTOCOLS = ['TLS', 'SSL', 'TCP'] as const;

/** The site settings the companion server reads, with their types. */
export interface SiteSettings extends OAuth2Settings {
  // group room
  disable_create_room: boolean;
  room_must_need_pwd: boolean;
  room_must_no_need_pwd: boolean;
  create_room_need_review: boolean;
  room_ttl: number;
  /** Companion-server extension: movies (and folders) one room may hold. */
  room_max_movie_count: number;
  // group user
  disable_user_signup: boolean;
  signup_need_review: boolean;
  enable_password_signup: boolean;
  password_signup_need_review: boolean;
  user_max_room_count: number;
  enable_guest: boolean;
  // group proxy
  movie_proxy: boolean;
  live_proxy: boolean;
  allow_proxy_to_local: boolean;
  proxy_cache_enable: boolean;
  /** Companion-server extensions (docs/transcode.md): converting what browsers cannot decode, and its limits. */
  movie_convert: boolean;
  convert_max_conversions: number;
  convert_max_per_user: number;
  convert_max_height: number;
  convert_max_minutes: number;
  convert_max_gigabytes: number;
  /** `software` or a hardware encoder that works here (../transcode/encoders.ts). */
  convert_encoder: string;
  // group rtmp (docs/live.md)
  rtmp_player: boolean;
  custom_publish_host: string;
  ts_disguised_as_png: boolean;
  // group server
  host: string;
  p2p_zone: string;
  // group email
  enable_email: boolean;
  email_disable_user_signup: boolean;
  email_signup_need_review: boolean;
  email_signup_white_list_enable: boolean;
  email_signup_white_list: string;
  smtp_host: string;
  smtp_port: number;
  smtp_protocol: string;
  smtp_username: string;
  smtp_password: string;
  smtp_from: string;
  smtp_pool_size: number;
}

const OAUTH2_DEFAULTS = Object.fromEntries(
  OAUTH2_PROVIDERS.flatMap((provider) => {
    const names = oauth2SettingNames(provider);
    return [
      [names.enabled, false],
      [names.clientId, ''],
      [names.clientSecret, ''],
      [names.redirectUrl, ''],
      [names.disableSignup, false],
      [names.signupNeedReview, false],
    ];
  }),
) as OAuth2Settings;

/** Defaults of §5.6, except `enable_password_signup` (true, §11 f). */
export const DEFAULT_SITE_SETTINGS: SiteSettings = {
  disable_create_room: false,
  room_must_need_pwd: false,
  room_must_no_need_pwd: false,
  create_room_need_review: false,
  room_ttl: 48,
  room_max_movie_count: 1000,
  disable_user_signup: false,
  signup_need_review: false,
  enable_password_signup: true,
  password_signup_need_review: false,
  user_max_room_count: 3,
  enable_guest: true,
  movie_proxy: true,
  live_proxy: true,
  allow_proxy_to_local: false,
  proxy_cache_enable: false,
  movie_convert: true,
  convert_max_conversions: 2,
  convert_max_per_user: 2,
  convert_max_height: 1080,
  convert_max_minutes: 240,
  convert_max_gigabytes: 100,
  convert_encoder: 'software',
  rtmp_player: false,
  custom_publish_host: '',
  ts_disguised_as_png: true,
  host: '',
  p2p_zone: 'hk',
  enable_email: false,
  email_disable_user_signup: false,
  email_signup_need_review: false,
  email_signup_white_list_enable: false,
  email_signup_white_list: 'gmail.com,qq.com,163.com,yahoo.com,sina.com,126.com,outlook.com,yeah.net,foxmail.com',
  smtp_host: '',
  smtp_port: 587,
  smtp_protocol: 'TLS',
  smtp_username: '',
  smtp_password: '',
  smtp_from: '',
  smtp_pool_size: 10,
  ...OAUTH2_DEFAULTS,
};

/** Reads and writes site settings. Values of the wrong type in the table fall back to the default. */
export class SettingsRepository {
  constructor(private readonly db: Db) {}

  /**
   * Writes every setting that has no row yet (first start, or a setting added later): the value of
   * `initial` when given (first-start configuration), else the default. Existing rows are kept.
   */
  async seedDefaults(initial: Partial<SiteSettings> = {}): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      for (const [name, value] of Object.entries({ ...DEFAULT_SITE_SETTINGS, ...initial })) {
        if (!(name in DEFAULT_SITE_SETTINGS) || value === undefined) continue;
        await tx
          .insertInto('settings')
          .values({ name, value: JSON.stringify(value) })
          .onConflict((conflict) => conflict.doNothing())
          .execute();
      }
    });
  }

  /** The effective settings: stored values over the defaults. */
  async get(): Promise<SiteSettings> {
    const settings: Record<string, unknown> = { ...DEFAULT_SITE_SETTINGS };
    for (const row of await this.db.selectFrom('settings').select(['name', 'value']).execute()) {
      if (!(row.name in DEFAULT_SITE_SETTINGS)) continue;
      try {
        const value: unknown = JSON.parse(row.value);
        if (typeof value === typeof DEFAULT_SITE_SETTINGS[row.name as keyof SiteSettings]) settings[row.name] = value;
      } catch {
        // A hand-edited row that is not JSON keeps the default.
      }
    }
    return settings as unknown as SiteSettings;
  }

  /** Stores one setting. */
  async set<K extends keyof SiteSettings>(name: K, value: SiteSettings[K]): Promise<void> {
    await upsert(this.db, name, value);
  }

  /** Stores several settings in one transaction. */
  async setMany(changes: Partial<SiteSettings>): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      for (const [name, value] of Object.entries(changes)) await upsert(tx, name, value);
    });
  }
}

/** Writes one setting's row through `db`, replacing its value. */
async function upsert(db: Db, name: string, value: unknown): Promise<void> {
  const json = JSON.stringify(value);
  await db
    .insertInto('settings')
    .values({ name, value: json })
    .onConflict((conflict) => conflict.column('name').doUpdateSet({ value: json }))
    .execute();
}
