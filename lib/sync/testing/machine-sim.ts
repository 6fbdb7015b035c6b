/**
 * A small world for the sync machine's property tests (../machine.property.test.ts): the machine's
 * state, a simulated element that fires what one engine's <video> fired for the same act (the
 * orders and delays recorded from Debian's Chromium, Firefox ESR and WebKitGTK, ./engine-orders.ts),
 * the shell's echo filter and its handling of the browser's own pauses and mutes (as ../engine.ts
 * does), the two timers, the tick, and a room that answers SYNC with the status it holds. Everything
 * runs on its own clock in 10 ms steps; nothing here is timed by jest.
 */
import type { PlaybackState } from '@/lib/contract/playback';
import { DEFAULT_TUNING } from '../correction';
import { ExpectedEvents } from '../expected-events';
import { initialState, phaseTimerAt, step, type MachineState, type SyncEffect, type SyncEvent } from '../machine';
import { readinessOf, HAVE_FUTURE_DATA, type MediaLike, type TimeRangesLike } from '../media';
import { DEFAULT_TICK_MS } from '../tuning';
import { engineProfile, type ElementEvent, type EngineProfile, type RecordedEngine, type TimedEvent } from './engine-orders';

const REPLY_DELAY_MS = 20;
/** The film's length (s). */
const DURATION_SEC = 120;

/** `[start, end]` pairs as TimeRanges. */
export function ranges(list: Array<[number, number]>): TimeRangesLike {
  return { length: list.length, start: (i) => list[i][0], end: (i) => list[i][1] };
}

/** The simulated element: its clock runs at `playbackRate` from `runsAtMs` while it plays, is not seeking and has data ahead (`readinessOf`). */
export class SimElement implements MediaLike {
  currentTime = 0;
  playbackRate = 1;
  muted = false;
  paused = true;
  ended = false;
  duration = DURATION_SEC;
  readyState = 4;
  seeking = false;
  buffered = ranges([[0, DURATION_SEC]]);
  seekable = ranges([[0, DURATION_SEC]]);
  runsAtMs = 0;
  play(): void {}
  pause(): void {}
  addEventListener(): void {}
  removeEventListener(): void {}
}

/** One element event waiting to be dispatched at `atMs`. */
interface Queued {
  atMs: number;
  type: ElementEvent | 'reply' | 'data-back';
  /** Caused by a person (their play, pause, seek or rate), not by the machine. */
  person: boolean;
  /** The readyState the element reports from this event on (as recorded). */
  readyState?: number;
  /** Part of a seek (a newer seek drops it). */
  ofSeek?: boolean;
  /** What the element's state becomes just before this event (as recorded). */
  apply?: () => void;
  /** `data-back`: where the data ran out (s). */
  stalledAtSec?: number;
  /** Aborted before it fired (a newer seek, a new source): it never fires. */
  aborted?: boolean;
}

/** One step the machine took: the event, whether a person caused it, and what came out. */
export interface StepRecord {
  event: SyncEvent;
  person: boolean;
  before: MachineState;
  after: MachineState;
  effects: SyncEffect[];
}

/** Who the world's viewer is: whether they may control playback, and whose element they have. */
export interface WorldOptions {
  canControl?: boolean;
  engine?: RecordedEngine;
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
  readonly canControl: boolean;
  readonly profile: EngineProfile;
  private queue: Queued[] = [];
  /** The events being delivered in this step (a seek or a swap among them aborts the rest's). */
  private due: Queued[] = [];
  private nextTickAtMs = this.now + DEFAULT_TICK_MS;
  /**
   * Who set the element's rate and position last. An event reads the element when it is dispatched,
   * so when a person changes the rate or seeks while the engine's own `ratechange` or `seeking` is
   * still queued, that event already carries the person's rate or position: it is theirs, whichever
   * call queued it (as in a browser, where both events fire and both read the person's value).
   */
  private rateSetByPerson = false;
  private seekSetByPerson = false;
  /** A person has acted on the page (sticky activation): the browser lets it play audibly. */
  private activated = false;
  /** A seek asked before the metadata: it starts when `loadedmetadata` comes. */
  private seekOnMetadata: { person: boolean } | null = null;
  /** The element waits at the end of its data: what the engine fires when it is back follows. */
  private starved = false;
  /** play() came before the data: `playing` follows the next `canplay`. */
  private playingOnCanplay = false;
  /** The shell learned that a rate change unmutes the element (../engine.ts `onVolumeChange`). */
  rateUnmutes = false;
  /** When the browser last unmuted the element unasked (ms), for the pause or play it makes after (../engine.ts `browserActed`). */
  private unaskedUnmuteAtMs = Number.NEGATIVE_INFINITY;

  constructor({ canControl = true, engine = 'chromium' }: WorldOptions = {}) {
    this.canControl = canControl;
    this.profile = engineProfile(engine);
  }

  /** Another member's action reaches this page now. */
  remote(status: PlaybackState): void {
    this.room = { status, atMs: this.now };
    this.dispatch({ type: 'remote-status', status }, false);
  }

  /** A person plays, pauses, seeks or changes the rate on the element itself. */
  personPlay(): void {
    this.activated = true;
    this.runElement('play', true);
  }
  personPause(): void {
    this.activated = true;
    this.runElement('pause', true);
  }
  personSeek(to: number): void {
    this.activated = true;
    this.seek(to, true);
  }
  personRate(rate: number): void {
    this.activated = true;
    this.setRate(rate, true);
  }

  /** The element runs out of data at its position, for `ms`: what the engine's element fires then, and when the data is back. */
  stall(ms: number): void {
    const el = this.element;
    if (el.paused || el.readyState === 0 || this.queue.some((queued) => queued.type === 'data-back')) return;
    el.buffered = ranges([[0, el.currentTime]]);
    this.starved = true;
    this.enqueueAll(this.profile.stallStart, false);
    this.queue.push({ atMs: this.now + ms, type: 'data-back', person: false, stalledAtSec: el.currentTime });
  }

  /** The player swaps the source (another URL of the same movie): paused at 0 with nothing (no `pause` event), then what the engine fires up to its data. */
  swapSource(): void {
    Object.assign(this.element, { paused: true, currentTime: 0, readyState: 0, seeking: false, buffered: ranges([[0, DURATION_SEC]]) });
    this.abort((queued) => queued.type !== 'reply');
    this.starved = false;
    this.seekOnMetadata = null;
    this.playingOnCanplay = false;
    this.enqueueAll(this.profile.swap, false);
  }

  /** Time passes in 10 ms steps: the element's clock, its events, the timers, the tick, the room's replies. */
  elapse(ms: number): void {
    for (let done = 0; done < ms; done += 10) {
      this.now += 10;
      this.runClock();
      // In the order the element fires them (stable for those due at the same time).
      const due = this.queue.filter((queued) => queued.atMs <= this.now).sort((a, b) => a.atMs - b.atMs);
      this.queue = this.queue.filter((queued) => queued.atMs > this.now);
      this.due = due;
      for (const queued of due) if (!queued.aborted) this.deliver(queued);
      this.due = [];
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

  /** 10 ms of the element's clock, up to the end of the data it has (there it waits, as an element does). */
  private runClock(): void {
    const el = this.element;
    if (el.paused || el.seeking || this.now < el.runsAtMs || readinessOf(el) < HAVE_FUTURE_DATA) return;
    const dataEnd = el.buffered.length ? el.buffered.end(el.buffered.length - 1) : 0;
    el.currentTime = Math.min(el.duration, dataEnd, el.currentTime + 0.01 * el.playbackRate);
    if (el.currentTime >= dataEnd && dataEnd < el.duration && !this.starved) {
      this.starved = true;
      this.enqueueAll([{ type: 'waiting', afterMs: 0, readyState: 2 }], false);
    }
  }

  private deliver(queued: Queued): void {
    const el = this.element;
    queued.apply?.();
    if (queued.readyState !== undefined) el.readyState = queued.readyState;
    const position = el.currentTime;
    switch (queued.type) {
      case 'reply': {
        const status = { ...this.room.status, currentTime: this.roomPosition() };
        this.dispatch({ type: 'sync-reply', status, serverTimeMs: this.now, request: { acquire: false, manual: false, beforeOwnStatus: false } }, false);
        return;
      }
      case 'data-back':
        el.buffered = ranges([[0, DURATION_SEC]]);
        if (this.starved && el.currentTime >= queued.stalledAtSec! - 0.5) this.enqueueAll(this.profile.stallEnd, false);
        this.starved = false;
        return;
      case 'play':
      case 'pause': {
        const own = this.expected.consume(queued.type);
        // The browser's own pause or play after it unmuted the element: the shell tells the machine it was no person's, and syncs.
        const browsers = !own && !queued.person && this.now - this.unaskedUnmuteAtMs <= 600;
        this.dispatch({ type: queued.type, own: own || browsers }, queued.person);
        if (browsers) this.dispatch({ type: 'manual-sync' }, false);
        return;
      }
      case 'volumechange':
        // ../engine.ts `onVolumeChange`: an unmute by the engine's own rate change is undone and learned.
        if (el.muted || queued.person) return;
        this.unaskedUnmuteAtMs = this.now;
        el.muted = true;
        this.rateUnmutes = true;
        return;
      case 'seeking':
        return this.dispatch({ type: 'seeking', expected: this.expected.pending('seeked', position) }, this.seekSetByPerson);
      case 'seeked':
        el.seeking = false;
        return this.dispatch({ type: 'seeked', expected: this.expected.consume('seeked', position) }, this.seekSetByPerson);
      case 'playing':
        if (el.paused) return;
        this.playingOnCanplay = false;
        return this.dispatch({ type: 'playing' }, false);
      case 'canplay':
        this.dispatch({ type: 'canplay' }, false);
        if (this.playingOnCanplay && !el.paused) {
          this.playingOnCanplay = false;
          el.runsAtMs = this.now;
          this.dispatch({ type: 'playing' }, false);
        }
        return;
      case 'loadedmetadata':
        this.dispatch({ type: 'loadedmetadata' }, false);
        if (this.seekOnMetadata) {
          el.seeking = true;
          this.seekSetByPerson = this.seekOnMetadata.person;
          this.enqueueAll(this.profile.seekBeforeMetadata, this.seekOnMetadata.person, true);
          this.seekOnMetadata = null;
        }
        return;
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
      rateUnmutes: this.rateUnmutes,
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
        return this.setRate(effect.rate, false);
      case 'send-status':
        this.room = { status: effect.status, atMs: this.now };
        return;
      case 'send-sync':
        this.queue.push({ atMs: this.now + REPLY_DELAY_MS, type: 'reply', person: false });
        return;
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
      // Refused without a gesture (WebKit): ../engine.ts `startPlayback` mutes it and plays again at once.
      if (!person && !this.activated && !el.muted && this.profile.refusesAudiblePlay) el.muted = true;
      el.paused = false;
      if (readinessOf(el) >= HAVE_FUTURE_DATA) {
        el.runsAtMs = this.now + (this.profile.play.find((event) => event.type === 'playing')?.afterMs ?? 0);
        this.enqueueAll(this.profile.play, person, false, true);
      } else {
        // Before the data: `play` and `waiting` now, `playing` once it can play.
        this.playingOnCanplay = true;
        this.enqueueAll([{ type: 'play', afterMs: 0, readyState: el.readyState }, { type: 'waiting', afterMs: 0, readyState: el.readyState }], person);
      }
    } else {
      if (el.paused) return;
      el.paused = true;
      this.playingOnCanplay = false;
      this.enqueueAll(this.profile.pause, person, false, true);
    }
  }

  private setRate(rate: number, person: boolean): void {
    const el = this.element;
    el.playbackRate = rate;
    this.rateSetByPerson = person;
    // WebKitGTK takes the element's mute from an audible rate (0.8–2; docs/browsers.md "WebKit").
    const unmutes = el.muted && rate >= 0.8 && rate <= 2 && this.profile.rateMuted.some((event) => event.type === 'volumechange');
    if (!unmutes || person || el.paused) {
      // A person's rate change is a gesture: the browser keeps the sound it unmutes.
      if (unmutes && person) el.muted = false;
      return this.enqueueAll(this.profile.rate, person);
    }
    // WebKitGTK: the rate unmutes the muted element, the autoplay policy pauses it, and it plays again (recorded).
    const list = this.profile.rateMuted.map<Queued>((event) => ({
      atMs: this.now + event.afterMs,
      type: event.type,
      person: false,
      readyState: event.readyState,
      apply:
        event.type === 'volumechange'
          ? () => Object.assign(el, { muted: false, paused: true })
          : event.type === 'play'
            ? () => Object.assign(el, { paused: false, runsAtMs: this.now })
            : undefined,
    }));
    this.queue.push(...list);
  }

  private seek(to: number, person: boolean): void {
    const el = this.element;
    el.currentTime = Math.max(0, Math.min(el.duration, to));
    this.seekSetByPerson = person;
    // A new seek aborts the pending one: only the last fires `seeked`.
    this.abort((queued) => Boolean(queued.ofSeek));
    if (el.readyState === 0) {
      // Before the metadata the position is only the default start: the seek happens at `loadedmetadata`.
      this.seekOnMetadata = { person };
      return;
    }
    el.seeking = true;
    const list = el.paused ? this.profile.seekPaused : this.profile.seekPlaying;
    const stalled = this.queue.some((queued) => queued.type === 'data-back');
    if (!stalled || el.currentTime <= el.buffered.end(0) - 0.5) return this.enqueueAll(list, person, true, true);
    // Out of the data while the network is stalled: `seeking` now, the rest once the data is back.
    const [first, ...rest] = list;
    this.enqueueAll([first], person, true, true);
    const back = this.queue.find((queued) => queued.type === 'data-back')!;
    for (const event of rest) this.queue.push({ atMs: back.atMs + event.afterMs, type: event.type, person, readyState: event.readyState, ofSeek: true });
  }

  /** Drops the queued events that `which` picks, and those of this step not yet delivered. */
  private abort(which: (queued: Queued) => boolean): void {
    this.queue = this.queue.filter((queued) => !which(queued));
    for (const queued of this.due) if (which(queued)) queued.aborted = true;
  }

  /** Queues `events` from now; `ofSeek`: part of a seek; `personsFirst`: only the act's own events (the first, and a seek's `seeked`) are the person's. */
  private enqueueAll(events: TimedEvent[], person: boolean, ofSeek = false, personsFirst = false): void {
    for (const [i, event] of events.entries()) {
      this.queue.push({ atMs: this.now + event.afterMs, type: event.type, person: person && (!personsFirst || i === 0 || event.type === 'seeked'), readyState: event.readyState, ofSeek });
    }
  }

  /** The phase timer the effects armed agrees with the state's due time. */
  timersAgree(): boolean {
    return this.timers.phase === phaseTimerAt(this.state.phase) && this.timers.publish === this.state.publish.dueAtMs;
  }
}
