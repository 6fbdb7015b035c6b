'use client';
import { useAtomValue } from 'jotai';
import { usePathname, useRouter } from 'next/navigation';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { matchRoute, withTrailingSlash } from '@/config/routes';
import { Spinner } from '@/components/ui/spinner';
import { decideGuard, type GuardDecision } from '@/lib/guard';
import { useT } from '@/lib/i18n';
import { Role, roleOf } from '@/lib/contract/roles';
import { publicSettingsAtom, sessionReadyAtom, userAtom } from '@/lib/session';

/**
 * Enforces the route table's minimum roles in a route-group layout (docs/static-export.md §3.1).
 * Visitor routes render at once (also in the prerender). Other routes show a neutral placeholder until
 * start-up has loaded the session, then either render or `router.replace` to login or /403.
 *
 * The decision is taken once per path: a session that ends while a page is open (sign-out, a 401)
 * does not bounce the page to login, because those flows take the user home themselves.
 */
export function AuthGuard({ children }: { children: ReactNode }) {
  const pathname = usePathname();
  const router = useRouter();
  const ready = useAtomValue(sessionReadyAtom);
  const user = useAtomValue(userAtom);
  const settings = useAtomValue(publicSettingsAtom);
  const open = matchRoute(pathname).minRole <= Role.Visitor;
  const [decided, setDecided] = useState<{ pathname: string; decision: GuardDecision } | null>(null);
  const latest = useRef({ user, settings });
  useEffect(() => {
    latest.current = { user, settings };
  });

  useEffect(() => {
    if (open || !ready) return;
    const { user: currentUser, settings: currentSettings } = latest.current;
    const decision = decideGuard({
      pathname,
      search: window.location.search,
      role: roleOf(currentUser),
      guestEnable: currentSettings?.guestEnable ?? false,
    });
    setDecided({ pathname, decision });
    if (decision.kind === 'redirect') router.replace(withTrailingSlash(decision.to));
  }, [open, ready, pathname, router]);

  if (open) return <>{children}</>;
  // `ready` only turns true after mount, so the prerender and the hydrating render both show the placeholder.
  if (!ready) return <GuardPlaceholder />;
  // On a new path, decide for display right away (avoids a placeholder flash between pages of one group);
  // the effect above then confirms and performs any redirect.
  const decision =
    decided?.pathname === pathname
      ? decided.decision
      : decideGuard({ pathname, role: roleOf(user), guestEnable: settings?.guestEnable ?? false });
  return decision.kind === 'allow' ? <>{children}</> : <GuardPlaceholder />;
}

function GuardPlaceholder() {
  const t = useT();
  return (
    <div className="flex flex-1 items-center justify-center py-24 text-zinc-400" data-testid="guard-pending">
      <Spinner className="h-6 w-6" label={t('guard.checking')} />
    </div>
  );
}
