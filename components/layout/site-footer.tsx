'use client';
import { useT } from '@/lib/i18n';

export function SiteFooter() {
  const t = useT();
  return (
    <footer className="border-t border-zinc-200 py-6 text-center text-xs text-zinc-500 dark:border-zinc-800 dark:text-zinc-400">
      <p>
        SyncTV · {t('app.tagline')} ·{' '}
        <a
          href="https://github.com/synctv-org"
          target="_blank"
          rel="noreferrer"
          className="underline-offset-2 hover:text-zinc-800 hover:underline dark:hover:text-zinc-200"
        >
          {t('footer.source')}
        </a>
      </p>
    </footer>
  );
}
