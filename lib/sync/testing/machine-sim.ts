/**
 * A small world for the sync machine's property tests (../machine.property.test.ts): the machine's
 * state, a simulated element that does what a <video> does with the machine's effects (play() runs
 * its clock 60 ms later, a seek inside the buffer lands 15 ms later, each change fires its events as
 * tasks), the shell's echo filter, the two timers, the tick, and a room that answers SYNC with the
 * status it holds. Everything runs on its own clock in 10 ms steps; nothing here is timed by jest.
 */
import type { PlaybackState } from '@/lib/contract/playback';
import { DEFAULT_TUNING } from '../correction';
import { ExpectedEvents } from '../expected-events';
import { initialState, phaseTimerAt, step, type MachineState, type SyncEffect, type SyncEvent } from '../machine';
import type { MediaLike, TimeRangesLike } from '../media';
import { DEFAULT_TICK_MS } from '../tuning';

const START_DELAY_MS = 60;
const SEEK_DELAY_MS = 15;
const REPLY_DELAY_MS = 20;

/** `[start, end]` pairs as TimeRanges. */
export function ranges(list: Array<[number, number]>): TimeRangesLike {
  return { length: list.length, start: (i) => list[i][0], end: (i) => list[i][1] };
}

/** The simulated element: its clock runs at `playbackRate` from `runsAtMs` while it plays and is not seeking. */
export class SimElement implements MediaLike {
  currentTime = 0;
  playbackRate = 1;
  muted = false;
  paused = true;
  ended = false;
  duration = 120;
  readyState = 4;
  seeking = false;
  buffered = ranges([[0, 120]]);
  seekable = ranges([[0, 120]]);
  runsAtMs = 0;
  play(): void {}
  pause(): void {}
  addEventListener(): void {}
  removeEventListener(): void {}
}

/** One element event waiting to be dispatched at `atMs`. */
interface Queued {
  atMs: number;
  type: 'play' | 'pause' | 'seeking' | 'seeked' | 'playing' | 'canplay' | 'ratechange' | 'emptied' | 'loadedmetadata' | 'waiting' | 'reply';
  /** Caused by a person (their play, pause, seek or rate), not by the machine. */
  person: boolean;
}

/** One step the machine took: the event, whether a person caused it, and what came out. */
export interface StepRecord {
  event: SyncEvent;
  person: boolean;
  before: MachineState;
  after: MachineState;
  effects: SyncEffect[];
}

export class MachineWorld {
  now = 1_700_000_000_000;
  state: MachineState = initialState(DEFAULT_TUNING);
  readonly element = new SimElement();
  readonly expected = new ExpectedEvents(() => this.now);
  readonly steps: StepRecord[] = [];
  /** The timers armed by the effects (what a shell would have), by name: due time (ms). */
  readonly timers: { phase: number | null; publish: number | null } = { phase: null, publish: null };
  /** The room: the last status it took, and when (ms). */
  room: { status: PlaybackState; atMs: number } = { status: { isPlaying: false, currentTime: 0, playbackRate: 1 }, atMs: this.now };
  /** Steps after which the timers the effects armed differ from the state's due times (a shell would then fire wrongly). */
  timerDisagreements = 0;
  private queue: Queued[] = [];
  private nextTickAtMs = this.now + DEFAULT_TICK_MS;
  private pendingReplies = 0;
  /**
   * Who set the element's rate and position last. An event reads the element when it is dispatched,
   * so when a person changes the rate or seeks while the engine's own `ratechange` or `seeking` is
   * still queued, that event already carries the person's rate or position: it is theirs, whichever
   * call queued it (as in a browser, where both events fire and both read the person's value).
   */
  private rateSetByPerson = false;
  private seekSetByPerson = false;

  constructor(readonly canControl = true) {}

  /** Another member's action reaches this page now. */
  remote(status: PlaybackState): void {
    this.room = { status, atMs: this.now };
    this.dispatch({ type: 'remote-status', status }, false);
  }

  /** A person plays, pauses, seeks or changes the rate on the element itself. */
  personPlay(): void {
    this.runElement('play', true);
  }
  personPause(): void {
    this.runElement('pause', true);
  }
  personSeek(to: number): void {
    this.seek(to, true);
  }
  personRate(rate: number): void {
    this.element.playbackRate = rate;
    this.rateSetByPerson = true;
    this.enqueue('ratechange', 0, true);
  }

  /** The element runs out of data for `ms`. */
  stall(ms: number): void {
    if (this.element.paused) return;
    this.element.readyState = 2;
    this.element.runsAtMs = this.now + ms;
    this.enqueue('waiting', 0, false);
    this.enqueue('playing', ms, false);
  }

  /** The player swaps the source (another URL of the same movie): emptied now, metadata after 50 ms. */
  swapSource(): void {
    Object.assign(this.element, { paused: true, currentTime: 0, readyState: 0, seeking: false });
    this.queue = this.queue.filter((queued) => queued.type === 'reply');
    this.enqueue('emptied', 0, false);
    this.enqueue('loadedmetadata', 50, false);
  }

  /** Time passes in 10 ms steps: the element's clock, its events, the timers, the tick, the room's replies. */
  elapse(ms: number): void {
    for (let done = 0; done < ms; done += 10) {
      this.now += 10;
      const el = this.element;
      if (!el.paused && !el.seeking && this.now >= el.runsAtMs && el.readyState >= 3) {
        el.currentTime = Math.min(el.duration, el.currentTime + 0.01 * el.playbackRate);
      }
      const due = this.queue.filter((queued) => queued.atMs <= this.now);
      this.queue = this.queue.filter((queued) => queued.atMs > this.now);
      for (const queued of due) this.deliver(queued);
      if (this.timers.phase !== null && this.timers.phase <= this.now) {
        this.timers.phase = null;
        this.dispatch({ type: 'timer' }, false);
      }
      if (this.timers.publish !== null && this.timers.publish <= this.now) {
        this.timers.publish = null;
        this.dispatch({ type: 'publish-timer' }, true);
      }
      if (this.now >= this.nextTickAtMs) {
        this.nextTickAtMs += DEFAULT_TICK_MS;
        this.dispatch({ type: 'tick' }, false);
      }
    }
  }

  /** The room's position now (s). */
  roomPosition(): number {
    const { status, atMs } = this.room;
    return status.isPlaying ? status.currentTime + ((this.now - atMs) / 1000) * status.playbackRate : status.currentTime;
  }

  private deliver(queued: Queued): void {
    const el = this.element;
    const position = el.currentTime;
    switch (queued.type) {
      case 'reply': {
        this.pendingReplies -= 1;
        const status = { ...this.room.status, currentTime: this.roomPosition() };
        this.dispatch({ type: 'sync-reply', status, serverTimeMs: this.now, request: { acquire: false, manual: false, beforeOwnStatus: false } }, false);
        return;
      }
      case 'play':
      case 'pause':
        return this.dispatch({ type: queued.type, own: this.expected.consume(queued.type) }, queued.person);
      case 'seeking':
        return this.dispatch({ type: 'seeking', expected: this.expected.pending('seeked', position) }, this.seekSetByPerson);
      case 'seeked':
        el.seeking = false;
        return this.dispatch({ type: 'seeked', expected: this.expected.consume('seeked', position) }, this.seekSetByPerson);
      case 'playing':
        el.readyState = 4;
        return this.dispatch({ type: 'playing' }, false);
      case 'loadedmetadata':
        el.readyState = 4;
        return this.dispatch({ type: 'loadedmetadata' }, false);
      case 'ratechange':
        return this.dispatch({ type: 'ratechange' }, this.rateSetByPerson);
      default:
        return this.dispatch({ type: queued.type }, queued.person);
    }
  }

  private dispatch(event: SyncEvent, person: boolean): void {
    const before = this.state;
    const { state, effects } = step(before, event, {
      nowMs: this.now,
      serverNowMs: this.now,
      clock: { offsetMs: 0, oneWayMs: 0, rttMs: 0 },
      media: this.element,
      tuning: DEFAULT_TUNING,
      live: false,
      canControl: this.canControl,
      connected: true,
      seekPublishDelayMs: 200,
      rateUnmutes: false,
    });
    this.state = state;
    this.steps.push({ event, person, before, after: state, effects });
    for (const effect of effects) this.carryOut(effect);
    if (!this.timersAgree()) this.timerDisagreements += 1;
  }

  private carryOut(effect: SyncEffect): void {
    switch (effect.type) {
      case 'play':
        this.expected.expect('play');
        return this.runElement('play', false);
      case 'pause':
        this.expected.expect('pause');
        return this.runElement('pause', false);
      case 'seek':
        this.expected.expect('seeked', effect.to);
        return this.seek(effect.to, false);
      case 'set-rate':
        this.element.playbackRate = effect.rate;
        this.rateSetByPerson = false;
        return this.enqueue('ratechange', 0, false);
      case 'send-status':
        this.room = { status: effect.status, atMs: this.now };
        return;
      case 'send-sync':
        this.pendingReplies += 1;
        return this.enqueue('reply', REPLY_DELAY_MS, false);
      case 'arm-timer':
        this.timers[effect.timer] = effect.atMs;
        return;
      case 'cancel-timer':
        this.timers[effect.timer] = null;
        return;
      case 'forget-seek':
        return this.expected.cancel('seeked');
      case 'forget-expected':
        return this.expected.clear();
      default:
        return;
    }
  }

  private runElement(kind: 'play' | 'pause', person: boolean): void {
    const el = this.element;
    if (kind === 'play') {
      if (!el.paused) return;
      el.paused = false;
      el.runsAtMs = this.now + START_DELAY_MS;
      this.enqueue('play', 0, person);
      this.enqueue('playing', START_DELAY_MS, false);
    } else {
      if (el.paused) return;
      el.paused = true;
      this.enqueue('pause', 0, person);
    }
  }

  private seek(to: number, person: boolean): void {
    const el = this.element;
    el.currentTime = Math.max(0, Math.min(el.duration, to));
    el.seeking = true;
    this.seekSetByPerson = person;
    // A new seek aborts the pending one: only the last fires `seeked`.
    this.queue = this.queue.filter((queued) => queued.type !== 'seeked' && queued.type !== 'canplay');
    this.enqueue('seeking', 0, person);
    this.enqueue('seeked', SEEK_DELAY_MS, person);
    this.enqueue('canplay', SEEK_DELAY_MS, false);
    if (!el.paused) this.enqueue('playing', SEEK_DELAY_MS, false);
  }

  private enqueue(type: Queued['type'], inMs: number, person: boolean): void {
    this.queue.push({ atMs: this.now + inMs, type, person });
  }

  /** The phase timer the effects armed agrees with the state's due time. */
  timersAgree(): boolean {
    return this.timers.phase === phaseTimerAt(this.state.phase) && this.timers.publish === this.state.publish.dueAtMs;
  }
}
