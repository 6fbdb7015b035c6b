/**
 * @jest-environment node
 *
 * Why the inline scripts before hydration (./route-boot-script.ts, ./early-input.ts,
 * lib/room/early-start.ts) are plain <script> elements and not `next/script` with
 * `beforeInteractive` (docs/static-export.md §5): in the App Router, Next renders such a script as a
 * push onto `self.__next_s`, which its runtime runs only once the framework's own chunks have come
 * down and run — seconds after the document on a phone, where these scripts must run while the
 * document is parsed. When a Next upgrade changes that, this test fails, and the choice is to be made again.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import Script from 'next/script';
// The context through which the App Router's root tells `next/script` it renders in the app directory.
import { HeadManagerContext } from 'next/dist/shared/lib/head-manager-context.shared-runtime';

describe("next/script's beforeInteractive in the App Router", () => {
  it('does not run the inline code where it stands: it queues it for the runtime', () => {
    const html = renderToStaticMarkup(
      <HeadManagerContext.Provider value={{ appDir: true }}>
        {/* eslint-disable-next-line @next/next/no-before-interactive-script-outside-document -- what this test shows */}
        <Script id="boot" strategy="beforeInteractive" dangerouslySetInnerHTML={{ __html: 'window.__booted=1' }} />
      </HeadManagerContext.Provider>,
    );
    expect(html).toContain('self.__next_s');
    expect(html).not.toMatch(/<script[^>]*>window\.__booted=1<\/script>/);
  });
});
