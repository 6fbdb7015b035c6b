'use client';
import { Construction } from 'lucide-react';
import Link from 'next/link';
import { buttonClasses } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { Badge } from '@/components/ui/badge';
import { useT, type MessageKey } from '@/lib/i18n';
import { PageHeading } from './page-heading';

export interface ComingSoonScreenProps {
  /** Route name from config/routes.ts, used for the root's `page-<name>` test id. */
  routeName: string;
  title: MessageKey;
  body: MessageKey;
  /** Values for placeholders in `body`. */
  params?: Record<string, string>;
}

/**
 * A screen whose feature a later release fills: its real title and a plain statement, never a form
 * that pretends to work.
 */
export function ComingSoonScreen({ routeName, title, body, params }: ComingSoonScreenProps) {
  const t = useT();
  return (
    <section data-testid={`page-${routeName}`} className="flex flex-1 flex-col">
      <PageHeading title={t(title)} />
      <EmptyState
        icon={<Construction />}
        title={<Badge tone="amber">{t('comingSoon.badge')}</Badge>}
        description={t(body, params)}
        action={
          <Link href="/" className={buttonClasses('outline')}>
            {t('action.backHome')}
          </Link>
        }
      />
    </section>
  );
}
