'use client';
import { usePathname } from 'next/navigation';
import { useState } from 'react';
import { normalizePath } from '@/config/routes';
import { BASE_PATH } from '@/lib/contract/export-layout';
import { earlyStartConfig, earlyStartScript } from '@/lib/room/early-start';

/**
 * Renders the room link's early start (lib/room/early-start.ts) into the <head> of the hall's document
 * (`/cinema/_/`), so that the room and its current movie are asked for, and the movie's player engine
 * comes down, while the hall's code is still loading. Like RouteBoot (./route-boot.tsx): written by the
 * prerender, kept as it is when hydrating, and only in production builds.
 */
export function EarlyStart() {
  // The prerender renders `/cinema/_`; the browser hydrates it at `/cinema/<id>`: both render the element.
  const inRoom = /^\/cinema\/[^/]+$/.test(normalizePath(usePathname()));
  // Only the prerender writes the text; the client build drops the generator (see RouteBoot).
  const [script] = useState(() => (typeof window === 'undefined' && inRoom ? earlyStartScript(earlyStartConfig(BASE_PATH, process.env.NEXT_PUBLIC_API_ORIGIN ?? '')) : ''));
  if (process.env.NODE_ENV !== 'production' || !inRoom) return null;
  return <script suppressHydrationWarning dangerouslySetInnerHTML={{ __html: script }} />;
}
