/**
 * The sync machine phase by phase (./machine.ts): for each phase, what an event leads to — the next
 * phase and the effects on the element and the room — calling `step()` directly on a still element
 * (no timers, no shell). How whole scenarios play out in time is in ./engine.test.ts and
 * ./machine.property.test.ts.
 */
import type { PlaybackState } from '@/lib/contract/playback';
import { DEFAULT_TUNING } from './correction';
import { canTransition } from './phase';
import { initialState, phaseTimerAt, step, type MachineState, type Phase, type StepContext, type SyncEffect, type SyncEvent } from './machine';
import { StruggleGuard } from './struggle';
import { ranges, SimElement } from './testing/machine-sim';
import { STRUGGLE_SEEKS } from './tuning';

const NOW = 1_700_000_000_000;

const playing = (currentTime: number, playbackRate = 1): PlaybackState => ({ isPlaying: true, currentTime, playbackRate });
const paused = (currentTime: number): PlaybackState => ({ isPlaying: false, currentTime, playbackRate: 1 });

/** A state in `phase` following `status` as of now (local clock, no offset), the element's clock long settled. */
function stateIn(phase: Phase, status: PlaybackState | null, patch: Partial<MachineState> = {}): MachineState {
  return { ...initialState(DEFAULT_TUNING), phase, target: status && { status, atMs: NOW, clock: 'local' }, roomRate: status?.playbackRate ?? 1, engineRate: status?.playbackRate ?? 1, ...patch };
}

/** A loaded, buffered element (0–120 s); playing unless `paused` is given. */
function element(patch: Partial<SimElement> = {}): SimElement {
  return Object.assign(new SimElement(), { paused: false, currentTime: 10 }, patch);
}

function run(state: MachineState, event: SyncEvent, media: SimElement, context: Partial<StepContext> = {}) {
  return step(state, event, {
    nowMs: NOW,
    serverNowMs: NOW,
    clock: { offsetMs: 0, oneWayMs: 0, rttMs: 0 },
    media,
    tuning: DEFAULT_TUNING,
    live: false,
    canControl: true,
    connected: true,
    seekPublishDelayMs: 200,
      rateUnmutes: false,
    ...context,
  });
}

/** The effects that act (on the element, the room, the timers), by type, without the log and the hall's label. */
const acts = (effects: SyncEffect[]) => effects.filter((effect) => effect.type !== 'log' && effect.type !== 'target').map((effect) => effect.type);

interface Row {
  what: string;
  state: MachineState;
  event: SyncEvent;
  media: SimElement;
  context?: Partial<StepContext>;
  phase: Phase['name'];
  effects: SyncEffect['type'][];
}

/** A struggle guard that gave up seeking just now (docs/sync.md "Slow devices"). */
function struggling(): StruggleGuard {
  const guard = new StruggleGuard();
  for (let i = 0; i < STRUGGLE_SEEKS; i += 1) guard.noteSeek(NOW - 100);
  return guard;
}

const running = (name: 'acquiring' | 'tracking' | 'recovering', nudge = 0): Phase => ({ name, nudge, lastMeasure: null });
const scheduled = (seekTo: number, startAtMs: number | null, ready = true): Phase => ({ name: 'scheduled', seekTo, far: false, calledAtMs: NOW - 20, ready, startAtMs });

const TABLE: Record<Phase['name'], Row[]> = {
  idle: [
    {
      what: 'a playing room before the element has metadata: wait, confirming the status',
      state: stateIn({ name: 'idle' }, null),
      event: { type: 'remote-status', status: playing(20) },
      media: element({ readyState: 0, paused: true, currentTime: 0 }),
      phase: 'idle',
      effects: ['send-sync'],
    },
    {
      what: 'a paused room: hold its exact position',
      state: stateIn({ name: 'idle' }, null),
      event: { type: 'remote-status', status: paused(42) },
      media: element({ paused: true, currentTime: 0 }),
      phase: 'paused',
      effects: ['seek'],
    },
    {
      what: 'a playing room far from the paused element: a scheduled start ahead of it (the lead covers the seek and the confirmation)',
      state: stateIn({ name: 'idle' }, null),
      event: { type: 'remote-status', status: playing(20) },
      media: element({ paused: true, currentTime: 80 }),
      phase: 'scheduled',
      effects: ['send-sync', 'seek'],
    },
    {
      what: 'metadata with the room about to reach the element: wait there, no seek, play() timed',
      state: stateIn({ name: 'idle' }, playing(5)),
      event: { type: 'loadedmetadata' },
      media: element({ paused: true, currentTime: 5.2 }),
      phase: 'scheduled',
      effects: ['arm-timer'],
    },
  ],
  paused: [
    {
      what: 'the room plays from where the element is: a start that catches up the start latency by rate',
      state: stateIn({ name: 'paused' }, paused(10)),
      event: { type: 'remote-status', status: playing(10) },
      media: element({ paused: true }),
      phase: 'catching-up',
      effects: ['send-sync', 'set-rate', 'play', 'arm-timer'],
    },
    {
      what: "the person's play: a common start for everyone a lead from now, the element waiting at its position",
      state: stateIn({ name: 'paused' }, paused(10)),
      event: { type: 'play', own: false },
      media: element(),
      phase: 'scheduled',
      effects: ['pause', 'seek', 'send-status'],
    },
    {
      what: "the engine's own play is only its echo",
      state: stateIn({ name: 'paused' }, paused(10)),
      event: { type: 'play', own: true },
      media: element(),
      phase: 'paused',
      effects: [],
    },
    {
      what: "the person's seek while paused: published at once",
      state: stateIn({ name: 'paused' }, paused(10)),
      event: { type: 'seeking', expected: false },
      media: element({ paused: true, currentTime: 50 }),
      phase: 'paused',
      effects: ['send-status'],
    },
    {
      what: 'the same seek by a member without playback control: the room state comes back instead',
      state: stateIn({ name: 'paused' }, paused(10)),
      event: { type: 'seeking', expected: false },
      media: element({ paused: true, currentTime: 50 }),
      context: { canControl: false },
      phase: 'paused',
      effects: ['control-denied', 'send-sync'],
    },
  ],
  scheduled: [
    {
      what: 'its element reached the seek and can play: play() timed for the room’s arrival',
      state: stateIn(scheduled(20.3, null, false), playing(20)),
      event: { type: 'canplay' },
      media: element({ paused: true, currentTime: 20.3 }),
      phase: 'scheduled',
      effects: ['arm-timer'],
    },
    {
      what: 'the start is due: play, and learn the start latency',
      state: stateIn(scheduled(20.06, NOW), playing(20)),
      event: { type: 'timer' },
      media: element({ paused: true, currentTime: 20.06 }),
      phase: 'acquiring',
      effects: ['play'],
    },
    {
      what: 'the browser plays the element meanwhile (WebKitGTK, ~90 ms after a rate change and a pause): parked again ahead of the room',
      state: stateIn(scheduled(20.3, NOW + 200), playing(20)),
      event: { type: 'manual-sync' },
      media: element({ paused: false, currentTime: 20.35 }),
      phase: 'scheduled',
      effects: ['pause', 'seek', 'cancel-timer'],
    },
    {
      what: 'the room pauses meanwhile: the start is dropped and the element holds the paused position',
      state: stateIn(scheduled(20.3, NOW + 200), playing(20)),
      event: { type: 'remote-status', status: paused(15) },
      media: element({ paused: true, currentTime: 20.3 }),
      phase: 'paused',
      effects: ['seek', 'cancel-timer'],
    },
  ],
  'catching-up': [
    {
      what: 'the catch-up ends: the room rate again, measured afresh',
      state: stateIn({ name: 'catching-up', nudge: 0.12, limitSec: 0.5, endAtMs: NOW }, playing(10), { engineRate: 1.12 }),
      event: { type: 'timer' },
      media: element({ playbackRate: 1.12 }),
      phase: 'acquiring',
      effects: ['set-rate'],
    },
    {
      what: 'a tick finds the element level with the room: the end is due now',
      state: stateIn({ name: 'catching-up', nudge: 0.12, limitSec: 0.5, endAtMs: NOW + 400 }, playing(10.4), { engineRate: 1.12 }),
      event: { type: 'tick' },
      media: element({ playbackRate: 1.12, currentTime: 10.5 }),
      phase: 'catching-up',
      effects: ['arm-timer'],
    },
  ],
  'switching-rate': [
    {
      what: "the instant comes: the room's new rate",
      state: stateIn({ name: 'switching-rate', from: { status: playing(10), serverTimeMs: NOW - 200 }, rate: 1.5, atMs: NOW }, playing(9.9, 1.5), { roomRate: 1.5 }),
      event: { type: 'timer' },
      media: element({ currentTime: 10.2 }),
      phase: 'acquiring',
      effects: ['set-rate'],
    },
    {
      what: 'the room pauses before it: the switch is dropped',
      state: stateIn({ name: 'switching-rate', from: { status: playing(10), serverTimeMs: NOW - 100 }, rate: 1.5, atMs: NOW + 100 }, playing(9.9, 1.5), { roomRate: 1.5 }),
      event: { type: 'remote-status', status: paused(10.1) },
      media: element({ currentTime: 10.1 }),
      phase: 'paused',
      effects: ['pause', 'seek', 'cancel-timer'],
    },
  ],
  acquiring: [
    {
      what: 'a steady element within the settle band: tracking, nothing to correct',
      state: stateIn(running('acquiring'), playing(10)),
      event: { type: 'tick' },
      media: element({ currentTime: 10.002 }),
      phase: 'tracking',
      effects: [],
    },
    {
      what: "a steady element missing the room by the acquire threshold: the action's one seek, as a scheduled start",
      state: stateIn(running('acquiring'), playing(10), { allowance: { seek: 'action', retry: 'spent', fine: true } }),
      event: { type: 'tick' },
      media: element({ currentTime: 10.3 }),
      phase: 'scheduled',
      effects: ['pause', 'seek'],
    },
  ],
  tracking: [
    {
      what: 'a drift of 30 ms: the rate is nudged',
      state: stateIn(running('tracking'), playing(10)),
      event: { type: 'tick' },
      media: element({ currentTime: 10.03 }),
      phase: 'tracking',
      effects: ['set-rate'],
    },
    {
      what: 'a drift of 2 s: past the seek threshold, one scheduled start',
      state: stateIn(running('tracking'), playing(10)),
      event: { type: 'tick' },
      media: element({ currentTime: 12 }),
      phase: 'scheduled',
      effects: ['pause', 'seek'],
    },
    {
      what: 'the element stalls for data: recovering, nothing published',
      state: stateIn(running('tracking'), playing(10)),
      event: { type: 'waiting' },
      media: element({ readyState: 2, buffered: ranges([[0, 10]]) }),
      phase: 'recovering',
      effects: [],
    },
    {
      what: 'a nudge in force on a muted element whose rate change unmutes it (WebKitGTK): back to the room’s rate before any seek',
      state: stateIn(running('tracking', -0.05), playing(10), { engineRate: 0.95 }),
      event: { type: 'tick' },
      media: element({ muted: true, playbackRate: 0.95, currentTime: 10.09 }),
      context: { rateUnmutes: true },
      phase: 'tracking',
      effects: ['set-rate'],
    },
    {
      what: 'struggling, a muted element whose rate change unmutes it still seeks from a quarter second (it has nothing else)',
      state: stateIn({ name: 'tracking', nudge: 0, lastMeasure: { driftSec: 0.3, atMs: NOW - 100, jumping: false, recent: [[NOW - 100, 0.3]] } }, playing(10), { struggle: struggling() }),
      event: { type: 'tick' },
      media: element({ muted: true, currentTime: 10.3 }),
      context: { rateUnmutes: true },
      phase: 'acquiring',
      effects: ['seek'],
    },
    {
      what: "WebKitGTK's `waiting` after a start or a rate change, with the data ahead at hand: no stall, tracking goes on",
      state: stateIn(running('tracking'), playing(10)),
      event: { type: 'waiting' },
      media: element({ readyState: 2 }),
      phase: 'tracking',
      effects: [],
    },
    {
      what: "another member's action: acquiring, its position confirmed by a SYNC",
      state: stateIn(running('tracking'), playing(10)),
      event: { type: 'remote-status', status: playing(10.02) },
      media: element(),
      phase: 'acquiring',
      effects: ['send-sync'],
    },
    {
      what: "the person's new rate while playing: everyone switches a lead from now, this element too",
      state: stateIn(running('tracking'), playing(10)),
      event: { type: 'ratechange' },
      media: element({ playbackRate: 1.5 }),
      phase: 'switching-rate',
      effects: ['set-rate', 'send-status', 'arm-timer'],
    },
  ],
  recovering: [
    {
      what: 'the stalled element runs again: one catch-up allowed',
      state: stateIn(running('recovering'), playing(10), { stalled: { sinceMs: NOW - 500, atSec: 10 } }),
      event: { type: 'playing' },
      media: element(),
      phase: 'recovering',
      effects: [],
    },
  ],
  ended: [
    {
      what: 'the room passed the end: the element stops at the end',
      state: stateIn(running('tracking'), playing(100)),
      event: { type: 'remote-status', status: playing(200) },
      media: element({ currentTime: 100 }),
      phase: 'ended',
      effects: ['send-sync', 'seek', 'pause'],
    },
  ],
  live: [
    {
      what: 'a live movie follows play and pause only',
      state: stateIn({ name: 'live' }, playing(0)),
      event: { type: 'remote-status', status: paused(0) },
      media: element(),
      context: { live: true },
      phase: 'live',
      effects: ['pause'],
    },
  ],
  unreachable: [
    {
      what: 'a source that cannot seek, the room a minute in: wait, paused, out of reach',
      state: stateIn({ name: 'paused' }, paused(0)),
      event: { type: 'remote-status', status: playing(60) },
      media: element({ paused: true, currentTime: 0, seekable: ranges([[0, 0]]) }),
      phase: 'unreachable',
      effects: ['send-sync'],
    },
    {
      what: 'the room pauses where the element is: within reach again',
      state: stateIn({ name: 'unreachable', checkedAtMs: NOW - 2000 }, paused(5)),
      event: { type: 'tick' },
      media: element({ paused: true, currentTime: 5, seekable: ranges([[0, 0]]) }),
      phase: 'paused',
      effects: [],
    },
  ],
};

describe.each(Object.entries(TABLE))('%s', (_phase, rows) => {
  it.each(rows.map((row) => [row.what, row] as const))('%s', (_what, row) => {
    const { state, effects } = run(row.state, row.event, row.media, row.context);
    expect({ phase: state.phase.name, effects: acts(effects) }).toEqual({ phase: row.phase, effects: row.effects });
  });
});

describe('step', () => {
  it('changes nothing it is given: the state before stays as it was', () => {
    const before = stateIn(running('tracking'), playing(10));
    const copy = JSON.stringify(before);
    run(before, { type: 'tick' }, element({ currentTime: 12 }));
    expect(JSON.stringify(before)).toBe(copy);
  });

  it('arms the phase timer for the phase’s own due time and cancels it when the phase leaves', () => {
    const waiting = run(stateIn(scheduled(20.3, null, false), playing(20)), { type: 'canplay' }, element({ paused: true, currentTime: 20.3 }));
    const armed = waiting.effects.find((effect) => effect.type === 'arm-timer');
    expect(armed).toEqual({ type: 'arm-timer', timer: 'phase', atMs: phaseTimerAt(waiting.state.phase) });
    const left = run(waiting.state, { type: 'remote-status', status: paused(15) }, element({ paused: true, currentTime: 20.3 }));
    expect(left.effects).toContainEqual({ type: 'cancel-timer', timer: 'phase' });
  });
});

/**
 * Every phase meets every event: one representative state per phase (following a playing or a
 * paused room), every kind of event, on a playing and on a paused element. Whatever happens, the
 * step goes only where PHASE_TRANSITIONS allows, leaves the phase timer armed for the next phase's
 * own due time (or cancelled), and sends a STATUS only for what a person did.
 */
describe('a stall', () => {
  it('ends once the clock runs past where a seek landed, `playing` or not (WebKitGTK fires none after a seek)', () => {
    const stalled = stateIn(running('recovering'), playing(30), { stalled: { sinceMs: NOW - 500, atSec: 30 } });
    const landed = run(stalled, { type: 'seeked', expected: false }, element({ currentTime: 5 }));
    const { state } = run(landed.state, { type: 'tick' }, element({ currentTime: 5.15 }));
    expect(state.stalled).toBeNull();
  });
});

describe('every phase × every event', () => {
  const rooms: [string, PlaybackState][] = [
    ['playing', playing(10)],
    ['paused', paused(10)],
  ];
  const phases: Phase[] = [
    { name: 'idle' },
    { name: 'paused' },
    scheduled(10.4, NOW + 400),
    scheduled(10.4, null, false),
    { name: 'catching-up', nudge: 0.12, limitSec: 0.5, endAtMs: NOW + 400 },
    { name: 'switching-rate', from: { status: playing(10), serverTimeMs: NOW - 100 }, rate: 1.5, atMs: NOW + 100 },
    running('acquiring'),
    running('tracking', 0.03),
    running('recovering'),
    { name: 'ended' },
    { name: 'live' },
    { name: 'unreachable', checkedAtMs: NOW - 2000 },
  ];
  /** Each event, and whether it is something a person did (which a STATUS may follow). */
  const events: [SyncEvent, boolean][] = [
    [{ type: 'remote-status', status: playing(30) }, false],
    [{ type: 'remote-status', status: paused(5) }, false],
    [{ type: 'remote-status', status: playing(10, 1.5) }, false],
    [{ type: 'http-status', status: playing(12), requestedAtMs: NOW - 100, receivedAtMs: NOW }, false],
    [{ type: 'sync-reply', status: playing(10.2), serverTimeMs: NOW, request: { acquire: true, manual: false, beforeOwnStatus: false } }, false],
    [{ type: 'sync-reply', status: playing(10.2), serverTimeMs: NOW, request: null }, false],
    [{ type: 'manual-sync' }, false],
    [{ type: 'connection', connected: false }, false],
    [{ type: 'connection', connected: true }, false],
    [{ type: 'play', own: true }, false],
    [{ type: 'pause', own: true }, false],
    [{ type: 'play', own: false }, true],
    [{ type: 'pause', own: false }, true],
    [{ type: 'seeking', expected: true }, false],
    [{ type: 'seeked', expected: true }, false],
    [{ type: 'seeking', expected: false }, true],
    [{ type: 'seeked', expected: false }, true],
    [{ type: 'ratechange' }, true],
    [{ type: 'emptied' }, false],
    [{ type: 'loadedmetadata' }, false],
    [{ type: 'playing' }, false],
    [{ type: 'waiting' }, false],
    [{ type: 'canplay' }, false],
    [{ type: 'tick' }, false],
    [{ type: 'timer' }, false],
    [{ type: 'publish-timer' }, true],
  ];
  const cases = rooms.flatMap(([room, status]) =>
    [...phases, { name: 'live' as const }].flatMap((phase, index) =>
      events.flatMap(([event, person]) => [false, true].map((elementPaused) => ({ room, status, phase, event, person, elementPaused, switched: index === phases.length }))),
    ),
  );

  it(`keeps to the transitions, the timer and the no-echo rule in all ${cases.length} cases`, () => {
    const broken: string[] = [];
    for (const { room, status, phase, event, person, elementPaused, switched } of cases) {
      const what = `${phase.name}${switched ? ' → a movie that is not live' : ''} (${room} room, ${elementPaused ? 'paused' : 'playing'} element) + ${JSON.stringify(event)}`;
      const before = stateIn(phase, status);
      for (const canControl of [true, false]) {
        // The live phase also meets the context of the next movie, which is not live (a movie switch).
        const { state, effects } = run(before, event, element({ paused: elementPaused }), { canControl, live: phase.name === 'live' && !switched });
        if (!canTransition(before.phase.name, state.phase.name)) broken.push(`${what}: went to ${state.phase.name}`);
        const timer = effects.filter((effect) => (effect.type === 'arm-timer' || effect.type === 'cancel-timer') && effect.timer === 'phase').at(-1);
        // The shell's timer is gone once it has fired.
        const armedBefore = event.type === 'timer' ? null : phaseTimerAt(before.phase);
        const armedAt = timer === undefined ? armedBefore : timer.type === 'arm-timer' ? timer.atMs : null;
        if (armedAt !== phaseTimerAt(state.phase)) broken.push(`${what}: phase timer ${armedAt}, due ${phaseTimerAt(state.phase)}`);
        const sent = effects.some((effect) => effect.type === 'send-status');
        // A pause that finds the element playing, or a play that finds it paused, is one the element already undid.
        const undone = (event.type === 'pause' && !elementPaused) || (event.type === 'play' && elementPaused);
        if (sent && (!person || !canControl || undone)) broken.push(`${what}: sent a STATUS${canControl ? (undone ? ' for an event the element undid' : '') : ' without control'}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
