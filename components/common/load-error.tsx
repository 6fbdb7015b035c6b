'use client';
import { CircleExclamationPoint } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { errorMessage } from '@/lib/api/error';
import { useT, type MessageKey } from '@/lib/i18n';

export interface LoadErrorProps {
  title: MessageKey;
  error: unknown;
  onRetry: () => void;
}

/** An inline error state with the server's text and a retry button. */
export function LoadError({ title, error, onRetry }: LoadErrorProps) {
  const t = useT();
  return (
    <EmptyState
      icon={<CircleExclamationPoint className="text-red-500" />}
      title={t(title)}
      description={errorMessage(error)}
      action={
        <Button variant="outline" onClick={onRetry}>
          {t('action.retry')}
        </Button>
      }
    />
  );
}
