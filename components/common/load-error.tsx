'use client';
import { CircleExclamationPoint } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { useErrorDescription } from '@/hooks/use-error-description';
import { useT, type MessageKey } from '@/lib/i18n';

export interface LoadErrorProps {
  title: MessageKey;
  error: unknown;
  onRetry: () => void;
}

/** An inline error state: what failed, why in words for people, and a retry button. */
export function LoadError({ title, error, onRetry }: LoadErrorProps) {
  const t = useT();
  const reason = useErrorDescription(error);
  return (
    <EmptyState
      icon={<CircleExclamationPoint className="text-red-500" />}
      title={t(title)}
      description={reason?.message}
      action={
        <Button variant="outline" onClick={onRetry}>
          {t('action.retry')}
        </Button>
      }
    />
  );
}
