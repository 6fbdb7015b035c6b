/** The danmaku overlay's chat lines: each line said after the viewer came flies once, even one said while the library still loads. */
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

const line = (id: string, text: string, extra: Partial<ChatLine> = {}): ChatLine => ({ id, username: 'friend', text, atMs: Date.now(), ...extra });
const settings: DanmakuSettings = { enabled: true, opacity: 1, density: 'high' };

describe('DanmakuLayer', () => {
  it('flies a line said while the danmaku library was still loading, once it has loaded, and none said before the viewer came', async () => {
    const video = document.createElement('video');
    const { rerender } = render(<DanmakuLayer video={video} settings={settings} lines={[line('1', 'said before', { earlier: true })]} />);
    // A friend speaks before the library is in (its import resolves after this synchronous render).
    rerender(<DanmakuLayer video={video} settings={settings} lines={[line('1', 'said before', { earlier: true }), line('2', 'hello as danmaku')]} />);
    expect(flown).toEqual([]);
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    expect(flown).toEqual(['hello as danmaku']);
    rerender(<DanmakuLayer video={video} settings={settings} lines={[line('1', 'said before', { earlier: true }), line('2', 'hello as danmaku'), line('3', 'and again')]} />);
    expect(flown).toEqual(['hello as danmaku', 'and again']);
  });

  it('leaves in the chat a line that waited for the stage longer than 10 s', async () => {
    flown.length = 0;
    const { rerender } = render(<DanmakuLayer video={null} settings={settings} lines={[]} />);
    rerender(<DanmakuLayer video={null} settings={settings} lines={[line('1', 'long ago', { atMs: Date.now() - 60_000 }), line('2', 'just now')]} />);
    // The movie starts: the stage is made.
    rerender(<DanmakuLayer video={document.createElement('video')} settings={settings} lines={[line('1', 'long ago', { atMs: Date.now() - 60_000 }), line('2', 'just now')]} />);
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    expect(flown).toEqual(['just now']);
  });
});
