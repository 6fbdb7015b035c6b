'use client';
import { useEffect, useState } from 'react';

/**
 * False during the prerender and the hydrating render, true after mount. Anything derived from the
 * real URL or from localStorage waits for it, because the prerendered HTML was built for the
 * placeholder path (`/cinema/_`) and rendering the real id while hydrating fails (docs/static-export.md §1.3).
 */
export function useMounted(): boolean {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return mounted;
}
