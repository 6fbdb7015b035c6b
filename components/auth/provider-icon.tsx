/**
 * The mark of an OAuth2 provider on its buttons (as the reference client shows one per platform,
 * docs/reference-client.md §1.3): the brand's glyph from simple-icons (CC0, one tree-shaken path per
 * icon) in the text colour, so that it reads in both themes; a provider simple-icons lacks
 * (Microsoft, Authing, Feishu) gets its initial in a circle.
 */
import { siBaidu, siDiscord, siGitee, siGithub, siGitlab, siGoogle, siQq, siXiaomi, type SimpleIcon } from 'simple-icons';

const ICONS: Record<string, SimpleIcon> = {
  github: siGithub,
  google: siGoogle,
  gitlab: siGitlab,
  gitee: siGitee,
  discord: siDiscord,
  baidu: siBaidu,
  'baidu-netdisk': siBaidu,
  xiaomi: siXiaomi,
  qq: siQq,
};

export function ProviderIcon({ provider, className = 'h-4 w-4' }: { provider: string; className?: string }) {
  const icon = ICONS[provider];
  if (!icon) {
    return (
      <span aria-hidden className={`${className} inline-flex shrink-0 items-center justify-center rounded-full bg-zinc-200 text-[0.625rem] font-bold uppercase text-zinc-800 dark:bg-zinc-700 dark:text-zinc-100`}>
        {provider.charAt(0)}
      </span>
    );
  }
  return (
    <svg aria-hidden viewBox="0 0 24 24" className={`${className} shrink-0`} fill="currentColor" data-provider-icon={provider}>
      <path d={icon.path} />
    </svg>
  );
}
