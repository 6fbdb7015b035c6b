'use client';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { buttonClasses } from '@/components/ui/button';
import { useT, type MessageKey } from '@/lib/i18n';

export interface StatusScreenProps {
  /** `page-403` or `page-404`. */
  testId: string;
  /** A decorative icon (hidden from screen readers: the title says what happened). */
  icon: ReactNode;
  title: MessageKey;
  body: MessageKey;
}

/**
 * The 403 and 404 screens (docs/reference-client.md §1.8): an icon, title, a sentence, and a way home. The
 * reference client shows an emoji; an icon drawn as SVG shows on every system.
 */
export function StatusScreen({ testId, icon, title, body }: StatusScreenProps) {
  const t = useT();
  return (
    <section data-testid={testId} className="flex flex-1 flex-col items-center justify-center gap-4 py-16 text-center">
      <div className="text-6xl" aria-hidden>
        {icon}
      </div>
      <h1 className="text-3xl font-bold tracking-tight">{t(title)}</h1>
      <p className="max-w-md text-zinc-500 dark:text-zinc-400">{t(body)}</p>
      <Link href="/" className={buttonClasses('primary', 'md', 'mt-2')}>
        {t('action.backHome')}
      </Link>
    </section>
  );
}
