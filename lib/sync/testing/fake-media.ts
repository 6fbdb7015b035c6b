/**
 * A media element stand-in for sync tests (no browser): it fires the events a real <video> fires,
 * as queued tasks, for both programmatic changes and "user" actions (which are the same calls, as
 * for a real element). Time moves only through `advance(ms)`. It can model the latencies measured in
 * Chromium: the clock starting after `playing` (`runDelayMs`), seeks (`seekDelayMs`,
 * `bufferedSeekDelayMs`), the step lost when the rate leaves 1 (`rateStepMs`), and stalls (`stall`).
 */
import type { MediaLike } from '../media';

export type AutoplayPolicy = 'allowed' | 'muted-only' | 'blocked';

export class FakeMedia extends EventTarget implements MediaLike {
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
  /** How long (ms) the clock stands still when the rate changes away from 1 while playing (Chromium's time-stretch start-up). */
  rateStepMs = 0;
  /** How long (ms) the clock stands still at every rate change while playing, either way (WebKitGTK on a loaded machine). */
  rateChangeStallMs = 0;
  /**
   * How far (ms of playback) the pipeline really ran past the currentTime reported at a pause: the
   * element resumes from there unless it was seeked while paused (Chromium, audio still in flight).
   */
  pauseOvershootMs = 0;
  /** How fast the media clock runs against the wall clock (0.99: 1 % slow, a drifting audio clock). */
  clockRate = 1;
  /**
   * Firefox: `currentTime` is the position its media pipeline last published, not the clock read
   * now, so reads taken 100 ms apart advance by 80–130 ms. Each 50 ms of wall time the reading is
   * off the real position by its own amount, up to this many ms either way (0: exact).
   */
  positionJitterMs = 0;
  /** Downloaded ranges [start, end] in s; a seek inside them takes `bufferedSeekDelayMs`. */
  bufferedRanges: Array<[number, number]> = [];
  /**
   * Ranges [start, end] in s the element can seek to; null: anywhere. A seek elsewhere lands on the
   * nearest seekable point, as the HTML spec says and Chromium does for a host without HTTP Range
   * (`[[0, 0]]`: every seek lands on 0).
   */
  seekableRanges: Array<[number, number]> | null = null;
  /**
   * WebKitGTK: a playbackRate change sets the element's muted from the rate alone (audible for
   * 0.8–2), so a nudge unmutes a muted element (docs/browsers.md "WebKit").
   */
  rateUnmutes = false;
  /** A rate set while paused (`rateUnmutes`): WebKitGTK's pipeline takes its mute from it at the next play(). */
  private rateSetWhilePaused = false;
  /**
   * WebKitGTK: a paused element that its pipeline unmuted (`rateUnmutes`) starts playing by itself
   * 50 ms later (`play`, `playing`), with no person acting (docs/browsers.md "WebKit").
   */
  playsAfterRateUnmute = false;
  /**
   * WebKitGTK with hls.js (MSE): a pause() while a seek of the playing element is in flight is undone
   * when that seek completes, as the pipeline goes back to playing and the element follows it
   * (`play`, no person acting; docs/browsers.md "No browser moves the room").
   */
  resumesAfterPauseInSeek = false;
  /** Set by a pause() during a seek of the playing element (`resumesAfterPauseInSeek`). */
  private pausedInSeek = false;
  /**
   * The autoplay policy of WebKit and Chromium: a playing element that becomes audible while no
   * person acts (`gesture` false) is paused by the browser (`volumechange`, then `pause`).
   */
  pausesWhenUnmuted = false;
  /**
   * WebKitGTK (CI, 2026-12-08): with sound refused without a gesture, an unmuted play() is at times
   * let through (before its pipeline has reported the audio track, it seems), and the element then
   * plays audibly until its next rate change, when the autoplay policy pauses it: `ratechange`, then
   * `pause`, no `volumechange` (docs/browsers.md "No browser moves the room"). Once.
   */
  admitsSoundUntilRateChange = false;
  /** Whether `admitsSoundUntilRateChange` has let one play() through and not yet paused it. */
  private admittedSound = false;
  /** Whether a person has acted on the page since it loaded (the page's sticky user activation, `hasBeenActive`). */
  everGesture = false;
  /**
   * WebKitGTK (GStreamer): after a seek or a rate change the element's readyState stays at
   * HAVE_CURRENT_DATA for good and a playing element fires `waiting`, never `playing` again, though
   * its clock runs and `buffered` covers what lies ahead; a play() from there fires `play` and
   * `waiting`, and its promise never settles (docs/browsers.md "WebKit").
   */
  holdsCurrentData = false;
  /** How often `seekable` was read before metadata (WebKitGTK then fixes the duration at the position: docs/browsers.md). */
  seekableReadsBeforeMetadata = 0;
  /** Whether a person is acting now (the page's user activation). */
  gesture = false;
  /** Every event fired, in order (for asserting what happened). */
  readonly fired: string[] = [];
  private position = 0;
  private isMuted = false;
  private rate = 1;
  private isPaused = true;
  private pendingSeek: ReturnType<typeof setTimeout> | null = null;
  private runsAtMs = 0;
  private stalledUntilMs = 0;
  private overshootSec = 0;
  /** False between play() and its own `playing` (play() already started the delay). */
  private restartOnPlaying = true;

  get seeking(): boolean {
    return this.pendingSeek !== null;
  }

  get buffered() {
    const ranges = this.bufferedRanges;
    return { length: ranges.length, start: (i: number) => ranges[i][0], end: (i: number) => ranges[i][1] };
  }

  get seekable() {
    if (this.readyState < 1) this.seekableReadsBeforeMetadata += 1;
    const ranges = this.seekableRanges ?? [[0, this.duration]];
    return { length: ranges.length, start: (i: number) => ranges[i][0], end: (i: number) => ranges[i][1] };
  }

  get currentTime(): number {
    if (!this.positionJitterMs || this.isPaused) return this.position;
    // A fixed pseudo-random offset per 50 ms bucket of wall time (one published position).
    const bucket = Math.floor(Date.now() / 50);
    const unit = (((bucket * 2654435761) >>> 0) % 2001) / 1000 - 1;
    return Math.max(0, this.position + (unit * this.positionJitterMs) / 1000);
  }

  set currentTime(value: number) {
    let target = Math.min(Math.max(0, value), this.duration);
    if (this.seekableRanges) {
      // Clamped to the nearest seekable point; with none, no seek happens at all.
      const landings = this.seekableRanges.map(([start, end]) => Math.min(Math.max(target, start), end));
      if (landings.length === 0) return;
      target = landings.reduce((best, landing) => (Math.abs(landing - target) < Math.abs(best - target) ? landing : best));
    }
    this.position = target;
    this.overshootSec = 0;
    // A seek flushes whatever held the clock (a hiccup); it restarts after the seek's `playing`.
    this.runsAtMs = 0;
    this.stalledUntilMs = 0;
    this.fire('seeking');
    // A new seek aborts the pending one: only the last fires `seeked`, as in browsers.
    if (this.pendingSeek !== null) clearTimeout(this.pendingSeek);
    const inBuffer = this.bufferedRanges.some(([start, end]) => this.position >= start && this.position <= end);
    this.pendingSeek = setTimeout(() => {
      this.pendingSeek = null;
      if (this.pausedInSeek) {
        this.pausedInSeek = false;
        if (this.isPaused) this.play().catch(() => undefined); // refused like any play() without a gesture
      }
      if (this.holdsCurrentData) {
        this.readyState = 2;
        if (!this.isPaused) this.fire('waiting');
        this.fire('seeked');
        return;
      }
      this.fire('seeked');
      this.fire('canplay');
      if (!this.isPaused) this.fire('playing');
    }, inBuffer ? this.bufferedSeekDelayMs : this.seekDelayMs);
  }

  get playbackRate(): number {
    return this.rate;
  }

  get muted(): boolean {
    return this.isMuted;
  }

  set muted(value: boolean) {
    if (value === this.isMuted) return;
    this.isMuted = value;
    this.queue('volumechange');
    if (!value && this.pausesWhenUnmuted && !this.gesture && !this.isPaused) {
      this.isPaused = true;
      this.queue('pause');
    }
  }

  set playbackRate(value: number) {
    if (value === this.rate) return;
    if (this.rateUnmutes && value >= 0.8 && value <= 2 && this.isMuted) {
      this.muted = false;
      if (this.isPaused && this.playsAfterRateUnmute) setTimeout(() => void this.play(), 50);
    }
    if (this.isPaused) this.rateSetWhilePaused = true;
    const policyPauses = this.admittedSound && !this.isPaused && !this.isMuted && !this.gesture;
    if (this.rate === 1 && !this.isPaused) this.runsAtMs = Math.max(this.runsAtMs, Date.now() + this.rateStepMs);
    if (!this.isPaused && this.rateChangeStallMs > 0) this.runsAtMs = Math.max(this.runsAtMs, Date.now()) + this.rateChangeStallMs;
    this.rate = value;
    this.queue('ratechange');
    if (policyPauses) {
      this.admittedSound = false;
      this.admitsSoundUntilRateChange = false;
      this.isPaused = true;
      this.queue('pause');
    }
    if (this.holdsCurrentData && this.readyState >= 2) {
      this.readyState = 2;
      if (!this.isPaused) this.queue('waiting');
    }
  }

  get paused(): boolean {
    return this.isPaused;
  }

  play(): Promise<void> {
    const admitted = this.admitsSoundUntilRateChange && this.autoplay === 'muted-only' && !this.muted && !this.gesture;
    if (admitted) this.admittedSound = true;
    if (this.autoplay === 'blocked' || (this.autoplay === 'muted-only' && !this.muted && !admitted)) {
      return Promise.reject(new DOMException('play() failed because the user did not interact', 'NotAllowedError'));
    }
    if (this.isPaused) {
      this.isPaused = false;
      this.ended = false;
      this.position = Math.min(this.duration, this.position + this.overshootSec);
      this.overshootSec = 0;
      // The clock starts `runDelayMs` after play(), whenever the queued events get dispatched.
      this.runsAtMs = Math.max(this.runsAtMs, Date.now() + this.runDelayMs);
      this.restartOnPlaying = false;
      this.queue('play');
      // At once, inside play(): its `volumechange` comes after the one of a mute just before it.
      if (this.rateUnmutes && this.rateSetWhilePaused && this.isMuted && this.rate >= 0.8 && this.rate <= 2) this.muted = false;
      this.rateSetWhilePaused = false;
      if (this.holdsCurrentData && this.readyState === 2) {
        this.queue('waiting');
        return new Promise<void>(() => undefined);
      }
      this.queue('playing');
    }
    return Promise.resolve();
  }

  pause(): void {
    if (this.isPaused) return;
    this.isPaused = true;
    if (this.resumesAfterPauseInSeek && this.pendingSeek !== null) this.pausedInSeek = true;
    this.overshootSec = (this.pauseOvershootMs / 1000) * this.rate;
    this.queue('pause');
  }

  /** Metadata arrives (readyState 1) and `loadedmetadata` fires. */
  loadMetadata(): void {
    this.readyState = 4;
    this.queue('loadedmetadata');
  }

  /**
   * A new source on the same element (`src` changed): paused at 0 with no data (`emptied`), until
   * `loadMetadata()` brings the new one's metadata.
   */
  swapSource(): void {
    if (this.pendingSeek !== null) clearTimeout(this.pendingSeek);
    this.pendingSeek = null;
    this.isPaused = true;
    this.position = 0;
    this.readyState = 0;
    this.fire('emptied');
  }

  /** The clock silently stands still for `ms` (a decoder hiccup that fires no event). */
  hiccup(ms: number): void {
    this.runsAtMs = Math.max(this.runsAtMs, Date.now()) + ms;
  }

  /**
   * The element runs out of data for `ms`: its buffered data ends at the position, `waiting` now,
   * the position stands still, then the data comes back and `playing`.
   */
  stall(ms: number): void {
    this.stalledUntilMs = Date.now() + ms;
    this.readyState = 2;
    const ranges = this.bufferedRanges;
    const at = this.position;
    this.bufferedRanges = ranges.flatMap(([start, end]): Array<[number, number]> => (start > at ? [] : [[start, Math.min(end, at)]]));
    this.fire('waiting');
    setTimeout(() => {
      this.bufferedRanges = ranges;
      this.readyState = 4;
      if (!this.isPaused) this.fire('playing');
    }, ms);
  }

  /**
   * Playback time passes (call before the clock moves by `ms`): a playing element moves by ms × rate,
   * except while a seek is pending, while stalled, and during `runDelayMs` after `playing`.
   */
  advance(ms: number): void {
    if (this.isPaused || this.readyState === 0 || this.pendingSeek !== null) return;
    const now = Date.now();
    const from = Math.max(now, this.runsAtMs, this.stalledUntilMs);
    const running = Math.max(0, now + ms - from);
    this.position = Math.min(this.duration, this.position + (running / 1000) * this.rate * this.clockRate);
  }

  private queue(type: string): void {
    setTimeout(() => this.fire(type), 0);
  }

  private fire(type: string): void {
    // After a seek or a stall the clock restarts with the same delay.
    if (type === 'playing') {
      if (this.restartOnPlaying) this.runsAtMs = Math.max(this.runsAtMs, Date.now() + this.runDelayMs);
      this.restartOnPlaying = true;
    }
    this.fired.push(type);
    this.dispatchEvent(new Event(type));
  }
}
