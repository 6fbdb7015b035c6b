'use client';
import { usePathname } from 'next/navigation';
import { useState } from 'react';
import { routeBootScript } from './route-boot-script';

/**
 * Renders the route boot script (./route-boot-script.ts) into <head>. During the prerender
 * `usePathname()` is the route the document is built for (`/cinema/_/`), which is all the script needs;
 * in the browser the script has already run, so the hydrating render keeps the server's text as it is
 * (React does not patch an inline script, and `suppressHydrationWarning` says the difference is intended).
 * Only in production builds: `next dev` renders every request for its real path, so there is no
 * build-time document to compare with.
 */
export function RouteBoot() {
  const pathname = usePathname();
  // Fixed at the first render: a later navigation must not rewrite a script that has already run.
  // Only the prerender writes it; the client build drops the generator (Next.js replaces `typeof
  // window` there), since the browser keeps the prerendered text anyway.
  const [script] = useState(() => (typeof window === 'undefined' ? routeBootScript(pathname) : ''));
  if (process.env.NODE_ENV !== 'production') return null;
  return <script suppressHydrationWarning dangerouslySetInnerHTML={{ __html: script }} />;
}
