import type { ReactNode } from 'react';
import { AppProviders } from '@/components/layout/app-providers';
import { EARLY_INPUT_SCRIPT } from '@/components/layout/early-input';
import { EarlyInputReplay } from '@/components/layout/early-input-replay';
import { EarlyStart } from '@/components/layout/early-start';
import { Header } from '@/components/layout/header';
import { RouteBoot } from '@/components/layout/route-boot';
import { SiteFooter } from '@/components/layout/site-footer';
import { THEME_INIT_SCRIPT } from '@/components/layout/theme-script';
import './globals.css';

// No metadata title here or in any page: titles are set on the client from config/routes.ts, because a
// metadata title would overwrite them after hydration on placeholder routes (docs/static-export.md §3.4).

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    // The inline scripts and the language bootstrap change <html> and the address before React hydrates.
    <html lang="zh-CN" suppressHydrationWarning>
      <head>
        {/* First: it may replace the whole document (deep links behind SyncTV's /web handler). */}
        <RouteBoot />
        <script dangerouslySetInnerHTML={{ __html: THEME_INIT_SCRIPT }} />
        {/* Before the page has hydrated: remembers a tap on the menu button, and keeps forms from being sent by the browser itself. */}
        <script dangerouslySetInnerHTML={{ __html: EARLY_INPUT_SCRIPT }} />
        {/* The hall's document only: asks for the room and its movie before the hall's code has come down. */}
        <EarlyStart />
      </head>
      <body className="flex min-h-dvh flex-col">
        {/* Static markup, so it costs no JavaScript: both languages are in the page and CSS shows the
            one that matches <html lang> (globals.css), which the language bootstrap sets. */}
        <a href="#main-content" className="skip-link" data-testid="skip-link">
          <span lang="en">Skip to main content</span>
          <span lang="zh-CN">跳到主要内容</span>
        </a>
        <AppProviders>
          <Header />
          {/* tabIndex -1: the skip link moves the focus here, so the next Tab starts in the content. */}
          <main id="main-content" tabIndex={-1} className="mx-auto flex w-full max-w-6xl flex-1 flex-col px-4 py-6 outline-none sm:px-6 lg:py-10">
            {children}
          </main>
          <SiteFooter />
          <EarlyInputReplay />
        </AppProviders>
      </body>
    </html>
  );
}
