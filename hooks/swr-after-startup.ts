'use client';
/**
 * SWR middleware that holds every keyed request until start-up has finished (`sessionReadyAtom`:
 * `GET /api/user/me` with a stored token, then `GET /api/public/settings`), as the reference client
 * loads the user and the settings before it mounts any screen (docs/reference-client.md §6). Until then
 * the hook reports `isLoading: true`, so screens show their loading state rather than an empty one.
 * Installed once for the whole app in components/layout/app-providers.tsx.
 */
import { useAtomValue } from 'jotai';
import type { Middleware, SWRResponse } from 'swr';
import { sessionReadyAtom } from '@/lib/session';

export const afterStartup: Middleware = (useSWRNext) => (key, fetcher, config) => {
  const ready = useAtomValue(sessionReadyAtom);
  const response = useSWRNext(ready ? key : null, fetcher, config);
  if (ready || key === null) return response;
  // The response's fields are getters that tell SWR what the screen reads; keep them, override one.
  return Object.defineProperty(Object.create(response) as SWRResponse, 'isLoading', { value: true });
};
