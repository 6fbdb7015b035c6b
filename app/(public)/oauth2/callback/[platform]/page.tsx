import { OAuthCallbackScreen } from '@/components/auth/oauth-callback-screen';

/** OAuth2 providers a SyncTV server may enable; their names are known at build time, so no rewrite is needed. */
const PLATFORMS = [
  'github', 'gitlab', 'gitee', 'google', 'microsoft', 'discord', 'baidu', 'baidu-netdisk',
  'qq', 'xiaomi', 'casdoor', 'logto', 'authing', 'feishu-sso', 'rainbow',
];

export function generateStaticParams() {
  return PLATFORMS.map((platform) => ({ platform }));
}

export default function OAuthCallbackPage() {
  return <OAuthCallbackScreen />;
}
