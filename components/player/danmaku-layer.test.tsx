/**
 * The danmaku overlay's chat lines: each line said after the viewer came flies once, including one
 * said before the overlay's stage was ready (the movie's first frame, the library's download), and
 * none said before (the server's replay, the lines restored from before a reload) or twice.
 */
import { act, render } from '@testing-library/react';
import type { ChatLine } from '@/hooks/use-chat';
import { DanmakuLayer } from './danmaku-layer';
import type { DanmakuSettings } from './danmaku-source';

/** What the mocked library was asked to fly. */
const flown: string[] = [];

jest.mock('danmaku/dist/esm/danmaku.dom.js', () => {
  class FakeDanmaku {
    emit(comment: { text: string }) {
      flown.push(comment.text);
    }
    show() {}
    hide() {}
    resize() {}
    destroy() {}
  }
  return { __esModule: true, default: FakeDanmaku };
});

beforeAll(() => {
  // jsdom has no ResizeObserver.
  (globalThis as { ResizeObserver?: unknown }).ResizeObserver = class {
    observe() {}
    disconnect() {}
  };
});

beforeEach(() => {
  flown.length = 0;
});

let nextId = 0;
/** A live line said `agoMs` ago (ids unique across the tests: the overlay remembers what it saw). */
const line = (text: string, extra: Partial<ChatLine> = {}, agoMs = 0): ChatLine => ({ id: `line-${(nextId += 1)}`, username: 'friend', text, atMs: Date.now() - agoMs, ...extra });
const settings: DanmakuSettings = { enabled: true, opacity: 1, density: 'high' };
/** Lets the library's dynamic import resolve. */
const libraryIn = () =>
  act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
  });

describe('DanmakuLayer', () => {
  it('flies a line said while the danmaku library was still loading, once it has loaded, and none from the server’s replay', async () => {
    const video = document.createElement('video');
    const replayed = line('said before', { earlier: true });
    const { rerender } = render(<DanmakuLayer video={video} settings={settings} lines={[replayed]} />);
    // A friend speaks before the library is in (its import resolves after this synchronous render).
    const hello = line('hello as danmaku');
    rerender(<DanmakuLayer video={video} settings={settings} lines={[replayed, hello]} />);
    expect(flown).toEqual([]);
    await libraryIn();
    expect(flown).toEqual(['hello as danmaku']);
    rerender(<DanmakuLayer video={video} settings={settings} lines={[replayed, hello, line('and again')]} />);
    expect(flown).toEqual(['hello as danmaku', 'and again']);
  });

  it('at the first frame flies what was said since the page loaded, at most 10 s ago; not what was restored from before the page or said long ago', async () => {
    // The page was loaded two minutes ago.
    const timeOrigin = Object.getOwnPropertyDescriptor(performance, 'timeOrigin');
    Object.defineProperty(performance, 'timeOrigin', { value: Date.now() - 120_000, configurable: true });
    try {
      const restored = line('from before the reload', {}, 180_000);
      const longAgo = line('long ago', {}, 60_000);
      const justNow = line('just now', {}, 3000);
      render(<DanmakuLayer video={document.createElement('video')} settings={settings} lines={[restored, longAgo, justNow]} />);
      await libraryIn();
      expect(flown).toEqual(['just now']);
    } finally {
      if (timeOrigin) Object.defineProperty(performance, 'timeOrigin', timeOrigin);
      else delete (performance as { timeOrigin?: number }).timeOrigin;
    }
  });

  it('flies nothing twice when danmaku is turned off and on again', async () => {
    const video = document.createElement('video');
    const lines = [line('once')];
    const first = render(<DanmakuLayer video={video} settings={settings} lines={lines} />);
    await libraryIn();
    expect(flown).toEqual(['once']);
    first.unmount();
    render(<DanmakuLayer video={video} settings={settings} lines={lines} />);
    await libraryIn();
    expect(flown).toEqual(['once']);
  });
});
