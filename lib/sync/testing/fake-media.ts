/**
 * A media element stand-in for sync tests (no browser): it fires the events a real <video> fires,
 * as queued tasks, for both programmatic changes and "user" actions (which are the same calls, as
 * for a real element). Time moves only through `advance(ms)`.
 */
import type { MediaLike } from '../media';

export type AutoplayPolicy = 'allowed' | 'muted-only' | 'blocked';

export class FakeMedia extends EventTarget implements MediaLike {
  muted = false;
  ended = false;
  duration = 120;
  readyState = 0;
  autoplay: AutoplayPolicy = 'allowed';
  /** How long (ms) a seek takes before `seeked` fires. */
  seekDelayMs = 0;
  /** How long (ms) a seek inside `bufferedRanges` takes. */
  bufferedSeekDelayMs = 0;
  /** How long (ms) after `playing` the position starts to move (a browser's audio output start-up). */
  runDelayMs = 0;
  /** Downloaded ranges [start, end] in s; a seek inside them takes `bufferedSeekDelayMs`. */
  bufferedRanges: Array<[number, number]> = [];
  /** Every event fired, in order (for asserting what happened). */
  readonly fired: string[] = [];
  private position = 0;
  private rate = 1;
  private isPaused = true;
  private pendingSeek: ReturnType<typeof setTimeout> | null = null;
  private runsAtMs = 0;

  get seeking(): boolean {
    return this.pendingSeek !== null;
  }

  get buffered() {
    const ranges = this.bufferedRanges;
    return { length: ranges.length, start: (i: number) => ranges[i][0], end: (i: number) => ranges[i][1] };
  }

  get currentTime(): number {
    return this.position;
  }

  set currentTime(value: number) {
    this.position = Math.min(Math.max(0, value), this.duration);
    this.fire('seeking');
    // A new seek aborts the pending one: only the last fires `seeked`, as in browsers.
    if (this.pendingSeek !== null) clearTimeout(this.pendingSeek);
    const inBuffer = this.bufferedRanges.some(([start, end]) => this.position >= start && this.position <= end);
    this.pendingSeek = setTimeout(() => {
      this.pendingSeek = null;
      this.fire('seeked');
      if (!this.isPaused) this.fire('playing');
    }, inBuffer ? this.bufferedSeekDelayMs : this.seekDelayMs);
  }

  get playbackRate(): number {
    return this.rate;
  }

  set playbackRate(value: number) {
    if (value === this.rate) return;
    this.rate = value;
    this.queue('ratechange');
  }

  get paused(): boolean {
    return this.isPaused;
  }

  play(): Promise<void> {
    if (this.autoplay === 'blocked' || (this.autoplay === 'muted-only' && !this.muted)) {
      return Promise.reject(new DOMException('play() failed because the user did not interact', 'NotAllowedError'));
    }
    if (this.isPaused) {
      this.isPaused = false;
      this.ended = false;
      this.queue('play');
      this.queue('playing');
    }
    return Promise.resolve();
  }

  pause(): void {
    if (this.isPaused) return;
    this.isPaused = true;
    this.queue('pause');
  }

  /** Metadata arrives (readyState 1) and `loadedmetadata` fires. */
  loadMetadata(): void {
    this.readyState = 4;
    this.queue('loadedmetadata');
  }

  /**
   * Playback time passes (call before the clock moves by `ms`): a playing element moves by ms × rate,
   * except while a seek is pending and during `runDelayMs` after `playing`.
   */
  advance(ms: number): void {
    if (this.isPaused || this.readyState === 0 || this.pendingSeek !== null) return;
    const now = Date.now();
    const running = Math.min(ms, Math.max(0, now + ms - Math.max(now, this.runsAtMs)));
    this.position = Math.min(this.duration, this.position + (running / 1000) * this.rate);
  }

  private queue(type: string): void {
    setTimeout(() => this.fire(type), 0);
  }

  private fire(type: string): void {
    if (type === 'playing') this.runsAtMs = Date.now() + this.runDelayMs;
    this.fired.push(type);
    this.dispatchEvent(new Event(type));
  }
}
