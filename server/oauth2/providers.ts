/**
 * The OAuth2 providers of the companion server (docs/contract.md §4.7) in one table: each
 * provider's endpoints, scopes, how the client secret is sent, quirks of its token response, and
 * how its profile maps to `{id, username}`. Endpoints and profile shapes follow each provider's
 * public documentation; the token exchange goes through oauth4webapi (./client.ts).
 */
import type { OAuth2Provider } from '@/lib/contract/oauth2';

/** A provider account: its stable id and the name a new SyncTV user gets from it. */
export interface ProviderProfile {
  id: string;
  username: string;
}

/** Reads the profile with an access token. `get` sends `Authorization: Bearer` (or `?access_token=` when `query`). */
export type ProfileReader = (
  accessToken: string,
  get: (url: string, options?: { tokenInQuery?: boolean; headers?: Record<string, string> }) => Promise<Record<string, unknown>>,
  endpoints: ProviderEndpoints,
) => Promise<ProviderProfile>;

/** Where a provider's authorization server lives. */
export interface ProviderEndpoints {
  authorize: string;
  token: string;
  profile: string;
}

/** One row of the table. */
export interface ProviderSpec {
  endpoints: ProviderEndpoints;
  scopes: string[];
  /** `basic`: HTTP Basic (RFC 6749 §2.3.1); `post`: `client_secret` in the form body. */
  clientAuth: 'basic' | 'post';
  /** Extra authorization-URL parameters. */
  authorizeParams?: Record<string, string>;
  /** Turns a non-standard token response body into RFC 6749 JSON text (Xiaomi's `&&&START&&&` prefix). */
  tokenBody?: (text: string) => string;
  profile: ProfileReader;
}

const text = (value: unknown): string => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');

/** Reads `idKey` and `nameKey` of a JSON profile at the profile endpoint. */
function simpleProfile(idKey: string, nameKey: string, options?: { tokenInQuery?: boolean; headers?: Record<string, string> }): ProfileReader {
  return async (_token, get, endpoints) => {
    const body = await get(endpoints.profile, options);
    return { id: text(body[idKey]), username: text(body[nameKey]) || text(body[idKey]) };
  };
}

const BAIDU = {
  authorize: 'https://openapi.baidu.com/oauth/2.0/authorize',
  token: 'https://openapi.baidu.com/oauth/2.0/token',
};

/** Every provider with its settings group `oauth2_<provider>` (§5.6). */
export const PROVIDER_SPECS: Record<OAuth2Provider, ProviderSpec> = {
  github: {
    endpoints: {
      authorize: 'https://github.com/login/oauth/authorize',
      token: 'https://github.com/login/oauth/access_token',
      profile: 'https://api.github.com/user',
    },
    scopes: ['read:user'],
    clientAuth: 'basic',
    profile: simpleProfile('id', 'login', { headers: { Accept: 'application/vnd.github+json' } }),
  },
  microsoft: {
    endpoints: {
      authorize: 'https://login.microsoftonline.com/common/oauth2/v2.0/authorize',
      token: 'https://login.microsoftonline.com/common/oauth2/v2.0/token',
      profile: 'https://graph.microsoft.com/v1.0/me',
    },
    scopes: ['User.Read'],
    clientAuth: 'post',
    profile: simpleProfile('id', 'displayName'),
  },
  google: {
    endpoints: {
      authorize: 'https://accounts.google.com/o/oauth2/v2/auth',
      token: 'https://oauth2.googleapis.com/token',
      profile: 'https://www.googleapis.com/oauth2/v2/userinfo',
    },
    scopes: ['https://www.googleapis.com/auth/userinfo.profile'],
    clientAuth: 'post',
    profile: simpleProfile('id', 'name'),
  },
  'feishu-sso': {
    endpoints: {
      authorize: 'https://passport.feishu.cn/suite/passport/oauth/authorize',
      token: 'https://passport.feishu.cn/suite/passport/oauth/token',
      profile: 'https://passport.feishu.cn/suite/passport/oauth/userinfo',
    },
    scopes: [],
    clientAuth: 'post',
    profile: simpleProfile('union_id', 'name'),
  },
  authing: {
    endpoints: {
      authorize: 'https://core.authing.cn/oidc/auth',
      token: 'https://core.authing.cn/oidc/token',
      profile: 'https://core.authing.cn/oidc/me',
    },
    scopes: ['openid', 'profile'],
    clientAuth: 'post',
    profile: simpleProfile('sub', 'name'),
  },
  xiaomi: {
    endpoints: {
      authorize: 'https://account.xiaomi.com/oauth2/authorize',
      token: 'https://account.xiaomi.com/oauth2/token',
      profile: 'https://open.account.xiaomi.com/user/profile',
    },
    scopes: ['1'],
    clientAuth: 'post',
    tokenBody: (body) => body.replace(/^&&&START&&&/, ''),
    profile: async (token, get, endpoints) => {
      const body = await get(`${endpoints.profile}?token=${encodeURIComponent(token)}`, { tokenInQuery: true });
      const data = (body.data ?? {}) as Record<string, unknown>;
      return { id: text(data.unionId), username: text(data.miliaoNick) || text(data.unionId) };
    },
  },
  discord: {
    endpoints: {
      authorize: 'https://discord.com/oauth2/authorize',
      token: 'https://discord.com/api/oauth2/token',
      profile: 'https://discord.com/api/users/@me',
    },
    scopes: ['identify'],
    clientAuth: 'basic',
    profile: simpleProfile('id', 'username'),
  },
  baidu: {
    endpoints: { ...BAIDU, profile: 'https://openapi.baidu.com/rest/2.0/passport/users/getInfo' },
    scopes: ['basic'],
    clientAuth: 'post',
    profile: simpleProfile('openid', 'username', { tokenInQuery: true }),
  },
  'baidu-netdisk': {
    endpoints: { ...BAIDU, profile: 'https://pan.baidu.com/rest/2.0/xpan/nas?method=uinfo' },
    scopes: ['basic', 'netdisk'],
    clientAuth: 'post',
    profile: simpleProfile('uk', 'baidu_name', { tokenInQuery: true }),
  },
  gitee: {
    endpoints: {
      authorize: 'https://gitee.com/oauth/authorize',
      token: 'https://gitee.com/oauth/token',
      profile: 'https://gitee.com/api/v5/user',
    },
    scopes: ['user_info'],
    clientAuth: 'post',
    profile: simpleProfile('id', 'login', { tokenInQuery: true }),
  },
  gitlab: {
    endpoints: {
      authorize: 'https://gitlab.com/oauth/authorize',
      token: 'https://gitlab.com/oauth/token',
      profile: 'https://gitlab.com/api/v4/user',
    },
    scopes: ['read_user'],
    clientAuth: 'post',
    profile: simpleProfile('id', 'username'),
  },
  qq: {
    endpoints: {
      authorize: 'https://graph.qq.com/oauth2.0/authorize',
      token: 'https://graph.qq.com/oauth2.0/token?fmt=json',
      profile: 'https://graph.qq.com/oauth2.0/me?fmt=json',
    },
    scopes: ['get_user_info'],
    clientAuth: 'post',
    profile: async (_token, get, endpoints) => {
      // QQ's profile needs the app id and the openid from /me; the openid alone identifies the account.
      const me = await get(endpoints.profile, { tokenInQuery: true });
      const openid = text(me.openid);
      return { id: openid, username: `qq_${openid.slice(0, 8)}` };
    },
  },
};
