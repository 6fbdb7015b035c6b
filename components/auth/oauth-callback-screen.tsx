'use client';
import { ComingSoonScreen } from '@/components/common/coming-soon-screen';
import { usePathSegment } from '@/hooks/use-path-segment';
import '@/lib/i18n/messages/auth';

/** `/oauth2/callback/{platform}`: third-party login arrives in a later release; this page says so plainly. */
export function OAuthCallbackScreen() {
  const platform = usePathSegment(2) ?? '…';
  return <ComingSoonScreen routeName="callback" title="route.callback" body="callback.body" params={{ platform }} />;
}
