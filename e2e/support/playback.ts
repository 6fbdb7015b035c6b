import type { BrowserContext, Page } from '@playwright/test';

/** What a viewer's <video> (`player-video`) shows at one instant. */
export interface MediaSample {
  /** False while the page has no player element (e.g. before the current movie is known). */
  present: boolean;
  /** Media position in seconds. */
  currentTime: number;
  paused: boolean;
  muted: boolean;
  seeking: boolean;
  ended: boolean;
  playbackRate: number;
  /** HTMLMediaElement.readyState: 0 nothing .. 4 enough data. */
  readyState: number;
  /** The buffered ranges in seconds, e.g. `0.00-12.04`, for failure messages. */
  buffered: string;
  /** Wall-clock time of the sample, Unix ms. Every page of the browser shares this clock. */
  atMs: number;
}

/** Reads the player's state in one synchronous step inside the page. */
export async function sampleMedia(page: Page): Promise<MediaSample> {
  return page.evaluate(() => {
    const video = document.querySelector<HTMLVideoElement>('video[data-testid="player-video"]');
    if (!video) {
      const none = { currentTime: 0, paused: true, muted: false, seeking: false, ended: false, playbackRate: 1, readyState: 0, buffered: '' };
      return { present: false, ...none, atMs: Date.now() };
    }
    return {
      present: true,
      currentTime: video.currentTime,
      paused: video.paused,
      muted: video.muted,
      seeking: video.seeking,
      ended: video.ended,
      playbackRate: video.playbackRate,
      readyState: video.readyState,
      buffered: Array.from({ length: video.buffered.length }, (_, i) => `${video.buffered.start(i).toFixed(2)}-${video.buffered.end(i).toFixed(2)}`).join(' '),
      atMs: Date.now(),
    };
  });
}

/** True when the element is playing as a viewer sees it: not paused, not ended, with data to play on. */
export function isPlaying(sample: MediaSample): boolean {
  return !sample.paused && !sample.ended && !sample.seeking && sample.readyState >= 3;
}

/** The sample's position extrapolated to `atMs` (a playing element advances at playbackRate), in seconds. */
export function positionAt(sample: MediaSample, atMs: number): number {
  if (!isPlaying(sample)) return sample.currentTime;
  return sample.currentTime + ((atMs - sample.atMs) / 1000) * sample.playbackRate;
}

/** Both viewers' samples and A's position minus B's at the same instant (seconds, signed). */
export interface PairSample {
  a: MediaSample;
  b: MediaSample;
  driftSec: number;
}

/**
 * Samples both players concurrently and corrects for the few milliseconds between the two reads,
 * so `driftSec` is what a person comparing the two timecodes would see.
 */
export async function samplePair(a: Page, b: Page): Promise<PairSample> {
  const [sa, sb] = await Promise.all([sampleMedia(a), sampleMedia(b)]);
  const at = Math.max(sa.atMs, sb.atMs);
  return { a: sa, b: sb, driftSec: positionAt(sa, at) - positionAt(sb, at) };
}

/** One line for failure messages, e.g. `t=20.13 playing rate=1 muted rs=4`. */
export function describe(sample: MediaSample): string {
  if (!sample.present) return 'no player-video element';
  const state = isPlaying(sample) ? 'playing' : sample.paused ? 'paused' : sample.seeking ? 'seeking' : 'stalled';
  return `t=${sample.currentTime.toFixed(2)} ${state} rate=${sample.playbackRate}${sample.muted ? ' muted' : ''} rs=${sample.readyState} buf=[${sample.buffered}]`;
}

/**
 * Turns on the hall's sync debug overlay (docs/sync.md "Debugging") for every page of `context`, so
 * that a failing sync test can attach what the engine decided (`syncDebugText`).
 */
export async function showSyncDebug(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => window.localStorage.setItem('debug', 'sync'));
}

/** The sync debug overlay's text (phase, drift, latencies, last decisions), or a note when there is none. */
export async function syncDebugText(page: Page): Promise<string> {
  const overlay = page.getByTestId('sync-debug');
  if ((await overlay.count()) === 0) return 'no sync debug overlay on this page';
  return overlay.innerText({ timeout: 2000 }).catch((error: unknown) => `unreadable: ${String(error)}`);
}
