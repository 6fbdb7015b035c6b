'use client';
import { usePathname } from 'next/navigation';
import { normalizePath } from '@/config/routes';
import { useMounted } from './use-mounted';

/**
 * Segment `index` of the current path (`/cinema/abc/` → 0: "cinema", 1: "abc"), decoded, or null before
 * mount and when absent. Dynamic routes are exported with a `_` placeholder, so `useParams()` is useless
 * there and the real id only exists in the URL (docs/static-export.md §1.3).
 */
export function usePathSegment(index: number): string | null {
  const pathname = usePathname();
  const mounted = useMounted();
  if (!mounted) return null;
  const segment = normalizePath(pathname).split('/').filter(Boolean)[index];
  if (!segment) return null;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
