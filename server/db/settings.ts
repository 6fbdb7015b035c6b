/**
 * Site settings (server-contract.md §5.6) in the `settings` table, one row per name with a JSON
 * value. Every known setting is written with its default on first start, so the table shows the
 * effective configuration. The companion server defaults `enable_password_signup` to true (§11 f).
 */
import type { Sqlite } from './database';

/** The site settings the companion server reads, with their types. */
export interface SiteSettings {
  // group room
  disable_create_room: boolean;
  room_must_need_pwd: boolean;
  room_must_no_need_pwd: boolean;
  create_room_need_review: boolean;
  room_ttl: number;
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
  // group server
  host: string;
  p2p_zone: string;
  // group email
  enable_email: boolean;
  email_disable_user_signup: boolean;
  email_signup_need_review: boolean;
  email_signup_white_list_enable: boolean;
  email_signup_white_list: string;
}

/** Defaults of §5.6, except `enable_password_signup` (true, §11 f). */
export const DEFAULT_SITE_SETTINGS: SiteSettings = {
  disable_create_room: false,
  room_must_need_pwd: false,
  room_must_no_need_pwd: false,
  create_room_need_review: false,
  room_ttl: 48,
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
  host: '',
  p2p_zone: 'hk',
  enable_email: false,
  email_disable_user_signup: false,
  email_signup_need_review: false,
  email_signup_white_list_enable: false,
  email_signup_white_list: 'gmail.com,qq.com,163.com,yahoo.com,sina.com,126.com,outlook.com,yeah.net,foxmail.com',
};

/** Reads and writes site settings. Values of the wrong type in the table fall back to the default. */
export class SettingsRepository {
  private readonly allStmt;
  private readonly upsertStmt;
  private readonly insertDefaultStmt;
  private readonly db: Sqlite;

  constructor(db: Sqlite) {
    this.db = db;
    this.allStmt = db.prepare<[], { name: string; value: string }>('SELECT name, value FROM settings');
    this.upsertStmt = db.prepare(
      'INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value',
    );
    this.insertDefaultStmt = db.prepare('INSERT OR IGNORE INTO settings (name, value) VALUES (?, ?)');
  }

  /** Writes every default that has no row yet (first start, or a setting added later). */
  seedDefaults(): void {
    this.db.transaction(() => {
      for (const [name, value] of Object.entries(DEFAULT_SITE_SETTINGS)) {
        this.insertDefaultStmt.run(name, JSON.stringify(value));
      }
    })();
  }

  /** The effective settings: stored values over the defaults. */
  get(): SiteSettings {
    const settings: Record<string, unknown> = { ...DEFAULT_SITE_SETTINGS };
    for (const row of this.allStmt.all()) {
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
  set<K extends keyof SiteSettings>(name: K, value: SiteSettings[K]): void {
    this.upsertStmt.run(name, JSON.stringify(value));
  }
}
