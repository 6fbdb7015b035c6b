/**
 * The in-page half of the sync benchmark, installed with `context.addInitScript` before the app's
 * first script: it samples the `player-video` element every 100 ms, records its media events, marks
 * the events the bench's own user actions cause, performs those actions, and (for the skewed client)
 * moves the page's `Date` by a fixed offset. Node drains the records every second.
 *
 * Real time in the page is `performance.timeOrigin + performance.now()`, which the `Date` override
 * does not touch, so samples of all pages (and Node's `Date.now()`) share one clock.
 */
import type { MediaEvent, MediaSample } from './analysis';

export interface ProbeConfig {
  /** Added to `Date.now()` and to `new Date()` without arguments in this page, ms (0 = real clock). */
  skewMs: number;
  /** Sampling period, ms. */
  sampleEveryMs: number;
}

/** A user action performed in the page as a person would on the player. */
export type ProbeAction = { kind: 'play' } | { kind: 'pause' } | { kind: 'seek'; value: number } | { kind: 'rate'; value: number };

/** What `window.__syncBench` offers to the bench. */
export interface ProbeApi {
  /**
   * Samples and events recorded since the previous drain (in time order), this document's load id,
   * and `Date.now()` minus the real time (ms), which shows the skew is in effect.
   */
  drain(): { loadId: string; samples: MediaSample[]; events: MediaEvent[]; dateSkewMs: number };
  /** Performs the action on `player-video` now; returns the real time it did (Unix ms). Throws without a player. */
  act(action: ProbeAction): number;
  /**
   * Records `action` as done now by a person's own input (a real click that the bench makes
   * through the browser's driver, seen by a capture listener); returns the real time (Unix ms).
   */
  mark(action: ProbeAction): number;
}

/**
 * The probe itself. Runs inside the page, so it must be self-contained: no imports, no outer
 * variables (Playwright ships its source text).
 */
export function pageProbe(config: ProbeConfig): void {
  const host = window as unknown as { __syncBench?: ProbeApi };
  if (host.__syncBench) return;
  const realNow = () => performance.timeOrigin + performance.now();

  if (config.skewMs) {
    const RealDate = Date;
    const skewedNow = () => RealDate.now() + config.skewMs;
    // A function, not a class: `Date()` called without `new` must still return a string.
    const SkewedDate = function (this: unknown, ...args: unknown[]) {
      if (!new.target) return new RealDate(skewedNow()).toString();
      if (args.length === 0) return new RealDate(skewedNow());
      return new (RealDate as unknown as new (...a: unknown[]) => Date)(...args);
    } as unknown as DateConstructor;
    // Shared prototype: `new Date() instanceof Date` and date methods behave as before.
    Object.defineProperty(SkewedDate, 'prototype', { value: RealDate.prototype });
    Object.defineProperty(SkewedDate, 'now', { value: skewedNow });
    Object.defineProperty(SkewedDate, 'parse', { value: RealDate.parse });
    Object.defineProperty(SkewedDate, 'UTC', { value: RealDate.UTC });
    window.Date = SkewedDate;
  }

  const loadId = Math.random().toString(36).slice(2, 10);
  let samples: MediaSample[] = [];
  let events: MediaEvent[] = [];
  // The bench's own action leaves a mark; the first matching event within a second is the user's.
  const pending: { seekAt: number | null; rateAt: number | null } = { seekAt: null, rateAt: null };
  const PENDING_MS = 1000;

  const findVideo = () => document.querySelector<HTMLVideoElement>('video[data-testid="player-video"]');

  const onMediaEvent = (event: Event) => {
    const video = event.target;
    if (!(video instanceof HTMLVideoElement) || video.dataset.testid !== 'player-video') return;
    const t = realNow();
    let user = false;
    let value: number | undefined;
    if (event.type === 'seeking') {
      value = video.currentTime;
      if (pending.seekAt !== null && t - pending.seekAt < PENDING_MS) user = true;
      pending.seekAt = null;
    } else if (event.type === 'ratechange') {
      value = video.playbackRate;
      if (pending.rateAt !== null && t - pending.rateAt < PENDING_MS) user = true;
      pending.rateAt = null;
    } else {
      value = video.currentTime;
    }
    events.push({ t, type: event.type, user, value });
  };
  // The page's own view of its socket: when it sent a frame and when its main thread got one
  // ('ws-send', 'ws-message', value = bytes), on the shared real clock. Playwright's frame events
  // arrive in Node later, after the DevTools protocol, so they cannot time a frame's path.
  const NativeWebSocket = window.WebSocket;
  window.WebSocket = class ProbedWebSocket extends NativeWebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      this.addEventListener('message', (event: MessageEvent) => {
        const data = event.data as unknown;
        const bytes = data instanceof ArrayBuffer ? data.byteLength : data instanceof Blob ? data.size : String(data).length;
        events.push({ t: realNow(), type: 'ws-message', value: bytes });
      });
    }

    send(data: Parameters<WebSocket['send']>[0]): void {
      const bytes = typeof data === 'string' ? data.length : data instanceof Blob ? data.size : data.byteLength;
      events.push({ t: realNow(), type: 'ws-send', value: bytes });
      super.send(data);
    }
  };
  // Media events do not bubble, but a capturing listener on the window still sees them.
  for (const type of ['seeking', 'seeked', 'ratechange', 'play', 'pause', 'playing', 'waiting', 'loadeddata', 'ended', 'emptied']) {
    window.addEventListener(type, onMediaEvent, true);
  }

  let lastIndicator = '';
  window.setInterval(() => {
    const t = realNow();
    const video = findVideo();
    // The app's sync indicator: what the engine believes, next to what the element does.
    const badge = document.querySelector<HTMLElement>('[data-testid="sync-indicator"]');
    const indicator = badge?.dataset.state || undefined;
    const driftText = badge?.dataset.driftMs;
    const indicatorDriftMs = driftText ? Number(driftText) : null;
    if (!video) {
      samples.push({ t, present: false, ct: 0, paused: true, seeking: false, ended: false, playbackRate: 1, readyState: 0, indicator, indicatorDriftMs });
    } else {
      samples.push({
        t,
        present: true,
        ct: video.currentTime,
        paused: video.paused,
        seeking: video.seeking,
        ended: video.ended,
        playbackRate: video.playbackRate,
        readyState: video.readyState,
        indicator,
        indicatorDriftMs,
      });
    }
    if ((indicator ?? '') !== lastIndicator) {
      lastIndicator = indicator ?? '';
      events.push({ t, type: 'indicator', value: lastIndicator });
    }
  }, config.sampleEveryMs);

  host.__syncBench = {
    drain() {
      const out = { loadId, samples, events, dateSkewMs: Math.round(Date.now() - realNow()) };
      samples = [];
      events = [];
      return out;
    },
    act(action) {
      const video = findVideo();
      if (!video) throw new Error('no player-video element');
      const t = realNow();
      switch (action.kind) {
        case 'play':
          // The promise settles later; a refusal shows up as the element staying paused.
          void video.play().catch(() => undefined);
          break;
        case 'pause':
          video.pause();
          break;
        case 'seek':
          pending.seekAt = t;
          video.currentTime = action.value;
          break;
        case 'rate':
          pending.rateAt = t;
          video.playbackRate = action.value;
          break;
      }
      events.push({ t, type: 'action', user: true, value: 'value' in action ? `${action.kind} ${action.value}` : action.kind });
      return t;
    },
    mark(action) {
      const t = realNow();
      events.push({ t, type: 'action', user: true, value: 'value' in action ? `${action.kind} ${action.value}` : action.kind });
      return t;
    },
  };
}

/**
 * The init-script source for `pageProbe(config)`. tsx compiles with esbuild's keepNames, which wraps
 * named functions in a `__name(...)` helper that does not exist in the page: define a global no-op
 * one (global, so the bench's later `page.evaluate` callbacks find it too).
 */
export function probeScript(config: ProbeConfig): string {
  return `globalThis.__name = globalThis.__name || ((fn) => fn);\n(${pageProbe.toString()})(${JSON.stringify(config)});`;
}
