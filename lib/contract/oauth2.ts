/**
 * OAuth2 providers of SyncTV v0.9.11 (docs/contract.md §4.7, docs/reference-client.md §1.3): their
 * wire names and the labels the reference client shows. Shared by the client's buttons and the
 * companion server's provider table.
 */

/** Providers with a built-in endpoint table on the companion server, in the reference client's order. */
export const OAUTH2_PROVIDERS = [
  'github',
  'microsoft',
  'google',
  'feishu-sso',
  'authing',
  'xiaomi',
  'discord',
  'baidu',
  'baidu-netdisk',
  'gitee',
  'gitlab',
  'qq',
] as const;
export type OAuth2Provider = (typeof OAUTH2_PROVIDERS)[number];

/** Display names of the reference client (§1.3); an unknown provider shows its wire name. */
const LABELS: Record<string, { en: string; zh: string }> = {
  github: { en: 'GitHub', zh: 'GitHub' },
  microsoft: { en: 'Microsoft', zh: 'Microsoft' },
  google: { en: 'Google', zh: 'Google' },
  'feishu-sso': { en: 'Feishu SSO', zh: '飞书SSO' },
  authing: { en: 'Authing', zh: 'Authing' },
  xiaomi: { en: 'Xiaomi', zh: '小米' },
  discord: { en: 'Discord', zh: 'Discord' },
  baidu: { en: 'Baidu', zh: '百度' },
  'baidu-netdisk': { en: 'Baidu Netdisk', zh: '百度网盘' },
  gitee: { en: 'Gitee', zh: 'Gitee' },
  gitlab: { en: 'GitLab', zh: 'GitLab' },
  qq: { en: 'QQ', zh: 'QQ' },
};

/** The provider's display name in `locale` (`zh-CN` or `en`). */
export function oauth2Label(provider: string, locale: string): string {
  const label = LABELS[provider];
  if (!label) return provider;
  return locale.startsWith('zh') ? label.zh : label.en;
}

export function isOAuth2Provider(value: string): value is OAuth2Provider {
  return (OAUTH2_PROVIDERS as readonly string[]).includes(value);
}
