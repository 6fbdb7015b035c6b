'use client';
import Link from 'next/link';
import { buttonClasses } from '@/components/ui/button';
import { useT, type MessageKey } from '@/lib/i18n';

export interface StatusScreenProps {
  /** `page-403` or `page-404`. */
  testId: string;
  emoji: string;
  title: MessageKey;
  body: MessageKey;
}

/** The 403 and 404 screens (reference-client.md §1.8): emoji, title, a sentence, and a way home. */
export function StatusScreen({ testId, emoji, title, body }: StatusScreenProps) {
  const t = useT();
  return (
    <section data-testid={testId} className="flex flex-1 flex-col items-center justify-center gap-4 py-16 text-center">
      <div className="text-6xl" aria-hidden>
        {emoji}
      </div>
      <h1 className="text-3xl font-bold tracking-tight">{t(title)}</h1>
      <p className="max-w-md text-zinc-500 dark:text-zinc-400">{t(body)}</p>
      <Link href="/" className={buttonClasses('primary', 'md', 'mt-2')}>
        {t('action.backHome')}
      </Link>
    </section>
  );
}
