'use client';
/**
 * The danmaku overlay: comments flying across the picture, under the controls, in fullscreen too
 * (the player puts it in media-chrome's media layer, components/player/player.tsx `overlay`). Three sources: the room's chat lines as they arrive
 * (not the ones restored after a reload), the movie's `danmu` file on the movie's timeline, and its
 * `streamDanmu` Server-Sent Events (`danmu` events, reconnecting after 3 s as the reference client
 * does). Drawn by the `danmaku` library (DOM engine). The hall mounts it only while the viewer has
 * danmaku on, so it (and the library) loads only then.
 */
import { useCallback, useEffect, useRef } from 'react';
import type Danmaku from 'danmaku';
import type { ChatLine } from '@/hooks/use-chat';
import { liveStage, type LiveStage } from './danmaku-live-stage';
import { liveLimiter, thinComments, type DanmakuSettings } from './danmaku-source';

export interface DanmakuLayerProps {
  video: HTMLVideoElement | null;
  /** Opacity and density (`enabled` is the parent's business: it mounts this only when on). */
  settings: DanmakuSettings;
  /** The room's chat, newest last; each line that arrives after mount flies once. */
  lines: ChatLine[];
  /** The movie's danmaku file URL (`base.danmu`, absolute), or "". */
  fileUrl?: string;
  /** The movie's danmaku event stream URL (`base.streamDanmu`, absolute), or "". */
  streamUrl?: string;
}

/** Delay (ms) before a closed `streamDanmu` connection is opened again. */
const STREAM_RETRY_MS = 3000;
/**
 * How long (ms) a chat line said before the stage was ready may still fly once it is: the overlay
 * mounts at the movie's first frame and then downloads the library, and a friend's "hi" as one
 * comes in is said in that time.
 */
const LINE_WAITS_MS = 10_000;

/**
 * The newest chat line this tab's overlay has dealt with (flown or left in the chat), kept across
 * its mounts: turning danmaku off and on again, or a new movie's first frame, flies nothing twice.
 */
let lastSeenLineId: string | null = null;
/** Scroll speed of comments, px/s (the library's default is 144). */
const SPEED = 160;

const commentStyle = (color: string): Partial<CSSStyleDeclaration> => ({
  color,
  textShadow: '-1px -1px #000, -1px 1px #000, 1px -1px #000, 1px 1px #000',
  font: '600 20px system-ui, sans-serif',
});

export function DanmakuLayer({ video, settings, lines, fileUrl = '', streamUrl = '' }: DanmakuLayerProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const liveRef = useRef<LiveStage | null>(null);
  const limiterRef = useRef(liveLimiter(settings.density));
  const { density } = settings;

  useEffect(() => {
    limiterRef.current = liveLimiter(density);
  }, [density]);

  // New chat lines fly, as many as the density allows: on each new line, and once the stage is
  // ready (a line said while it was not waits for it instead of being lost).
  const linesRef = useRef(lines);
  const flyNewLines = useCallback(() => {
    const live = liveRef.current;
    if (!live) return;
    const current = linesRef.current;
    const newest = current.at(-1);
    if (!newest || newest.id === lastSeenLineId) return;
    const start = current.findIndex((line) => line.id === lastSeenLineId);
    lastSeenLineId = newest.id;
    const nowMs = Date.now();
    for (const line of current.slice(start + 1)) {
      // What was said before this viewer came (the server's replay), the hall's own lines, the
      // lines restored from before this page was loaded, and one that waited longer than
      // LINE_WAITS_MS (the room had no movie yet) stay in the chat.
      if (line.earlier || line.system || line.atMs < performance.timeOrigin || nowMs - line.atMs > LINE_WAITS_MS) continue;
      if (limiterRef.current.take(nowMs)) live.fly({ text: line.text, style: commentStyle('#ffffff') });
    }
  }, []);
  // The live stage (chat and streamDanmu) and, when the movie has one, the timeline stage (its file).
  useEffect(() => {
    const container = containerRef.current;
    if (!container || !video) return;
    let cancelled = false;
    let timeline: Danmaku | null = null;
    let live: Danmaku | null = null;
    const resize = new ResizeObserver(() => {
      live?.resize();
      timeline?.resize();
    });
    import('danmaku/dist/esm/danmaku.dom.js')
      .then(async ({ default: DanmakuClass }) => {
        if (cancelled) return;
        live = new DanmakuClass({ container, speed: SPEED });
        // Drawn only while a comment crosses it (./danmaku-live-stage.ts).
        liveRef.current = liveStage(live, () => (container.offsetWidth / SPEED) * 1000);
        resize.observe(container);
        flyNewLines();
        if (!fileUrl) return;
        const [{ parseDanmakuFile }, response] = await Promise.all([import('./danmaku-file'), fetch(fileUrl)]);
        const comments = response.ok ? thinComments(parseDanmakuFile(await response.text()), density) : [];
        if (cancelled || comments.length === 0) return;
        timeline = new DanmakuClass({
          container,
          media: video,
          speed: SPEED,
          comments: comments.map((comment) => ({ text: comment.text, time: comment.time, mode: comment.mode, style: commentStyle(comment.color) })),
        });
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
      resize.disconnect();
      liveRef.current?.dispose();
      live?.destroy();
      timeline?.destroy();
      liveRef.current = null;
    };
  }, [video, fileUrl, density, flyNewLines]);

  useEffect(() => {
    linesRef.current = lines;
    flyNewLines();
  }, [lines, flyNewLines]);

  // The movie's live danmaku stream.
  useEffect(() => {
    if (!streamUrl) return;
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const open = () => {
      source = new EventSource(streamUrl);
      source.addEventListener('danmu', (event) => {
        const text = (event as MessageEvent<string>).data;
        if (text && limiterRef.current.take(Date.now())) liveRef.current?.fly({ text, style: commentStyle('#ffffff') });
      });
      source.addEventListener('error', () => {
        if (source?.readyState !== EventSource.CLOSED || stopped) return;
        retry = setTimeout(open, STREAM_RETRY_MS);
      });
    };
    open();
    return () => {
      stopped = true;
      clearTimeout(retry);
      source?.close();
    };
  }, [streamUrl]);

  return (
    <div
      ref={containerRef}
      aria-hidden
      data-testid="danmaku-layer"
      className="pointer-events-none absolute inset-0 overflow-hidden"
      style={{ opacity: settings.opacity }}
    />
  );
}
