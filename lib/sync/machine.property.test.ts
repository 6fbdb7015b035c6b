/**
 * The sync machine's invariants over random evenings (fast-check): people play, pause, seek and
 * change the rate, other members' statuses arrive, the element stalls or swaps its source, time
 * passes — all in a simulated world (./testing/machine-sim.ts) that carries out the machine's
 * effects as an element and a shell would.
 */
import fc from 'fast-check';
import type { PlaybackState } from '@/lib/contract/playback';
import { phaseTimerAt } from './machine';
import { canTransition } from './phase';
import { STRUGGLE_UNNUDGEABLE_SEEK_SEC, UNNUDGEABLE_SEEK_SEC } from './tuning';
import { RECORDED_ENGINES } from './testing/engine-orders';
import { MachineWorld } from './testing/machine-sim';

type Action =
  | { kind: 'remote'; status: PlaybackState }
  | { kind: 'play' | 'pause' }
  | { kind: 'seek'; to: number }
  | { kind: 'rate'; rate: number }
  | { kind: 'stall'; ms: number }
  | { kind: 'swap' }
  | { kind: 'elapse'; ms: number };

const position = fc.double({ min: 0, max: 110, noNaN: true });
const rate = fc.constantFrom(0.5, 1, 1.25, 1.5, 2);
const action: fc.Arbitrary<Action> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('remote' as const), status: fc.record({ isPlaying: fc.boolean(), currentTime: position, playbackRate: rate }) }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constantFrom('play' as const, 'pause' as const) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('seek' as const), to: position }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('rate' as const), rate }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('stall' as const), ms: fc.integer({ min: 50, max: 3000 }) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('swap' as const) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('elapse' as const), ms: fc.integer({ min: 10, max: 2000 }) }), weight: 4 },
);
const evening = fc.array(action, { minLength: 1, maxLength: 25 });

/** Plays `actions` in `world`, with a little time after each (events are tasks). */
function play(world: MachineWorld, actions: Action[]): void {
  for (const next of actions) {
    if (next.kind === 'remote') world.remote(next.status);
    else if (next.kind === 'play') world.personPlay();
    else if (next.kind === 'pause') world.personPause();
    else if (next.kind === 'seek') world.personSeek(next.to);
    else if (next.kind === 'rate') world.personRate(next.rate);
    else if (next.kind === 'stall') world.stall(next.ms);
    else if (next.kind === 'swap') world.swapSource();
    world.elapse(next.kind === 'elapse' ? next.ms : 30);
  }
}

/** 150 random evenings per property; `SYNC_PROPERTY_RUNS=20000` explores further (and `SYNC_PROPERTY_SEED` replays a failure). */
const RUNS = {
  numRuns: Number(process.env.SYNC_PROPERTY_RUNS ?? 150),
  ...(process.env.SYNC_PROPERTY_SEED ? { seed: Number(process.env.SYNC_PROPERTY_SEED) } : {}),
};

/**
 * Evenings CI once found in which a person's rate or seek overtook the engine's own still-queued
 * `ratechange` or `seeking`: that event reads the person's value and is rightly published as theirs
 * (the world attributes it so since); kept so that every run tries them.
 */
const PERSON_OVERTAKES_ENGINE: Action[][][] = [
  [[{ kind: 'play' }, { kind: 'swap' }, { kind: 'elapse', ms: 11 }, { kind: 'rate', rate: 0.5 }, { kind: 'swap' }]],
  [
    [
      { kind: 'remote', status: { isPlaying: false, currentTime: 0, playbackRate: 0.5 } },
      { kind: 'rate', rate: 0.5 },
      { kind: 'stall', ms: 50 },
      { kind: 'remote', status: { isPlaying: true, currentTime: 0, playbackRate: 1.5 } },
      { kind: 'elapse', ms: 311 },
      { kind: 'seek', to: 0 },
      { kind: 'elapse', ms: 1171 },
      { kind: 'swap' },
      { kind: 'play' },
      { kind: 'play' },
      { kind: 'elapse', ms: 351 },
      { kind: 'seek', to: 0 },
    ],
  ],
];

describe.each(RECORDED_ENGINES)('the sync machine, over random evenings, with the element of %s', (engine) => {
  it('publishes a STATUS only for something a person did, never for its own play, pause, seek or rate', () => {
    fc.assert(
      fc.property(evening, (actions) => {
        const world = new MachineWorld({ engine });
        play(world, actions);
        for (const record of world.steps) {
          if (!record.person) expect(record.effects.filter((effect) => effect.type === 'send-status')).toEqual([]);
        }
      }),
      { ...RUNS, examples: PERSON_OVERTAKES_ENGINE },
    );
  });

  it('never moves the room for a member without playback control, whatever they do to the element', () => {
    fc.assert(
      fc.property(evening, (actions) => {
        const world = new MachineWorld({ canControl: false, engine });
        play(world, actions);
        expect(world.steps.flatMap((record) => record.effects).filter((effect) => effect.type === 'send-status')).toEqual([]);
      }),
      RUNS,
    );
  });

  it('goes only where the phase table allows, and keeps one phase timer at most, armed for the due time of the phase it is in, after every step', () => {
    fc.assert(
      fc.property(evening, (actions) => {
        const world = new MachineWorld({ engine });
        play(world, actions);
        const outside = world.steps.filter((record) => !canTransition(record.before.phase.name, record.after.phase.name));
        expect(outside.map((record) => `${record.before.phase.name} → ${record.after.phase.name} on ${record.event.type}`)).toEqual([]);
        expect(world.timerDisagreements).toBe(0);
        expect(world.steps.filter((record) => phaseTimerAt(record.after.phase) !== null && !['scheduled', 'catching-up', 'switching-rate'].includes(record.after.phase.name))).toEqual([]);
      }),
      RUNS,
    );
  });

  it('from wherever an evening left it, a playing room’s STATUS leads to tracking within 5 s and stays there', () => {
    fc.assert(
      fc.property(evening, fc.double({ min: 5, max: 100, noNaN: true }), rate, (actions, at, playbackRate) => {
        const world = new MachineWorld({ engine });
        play(world, actions);
        world.elapse(3000); // whatever the person did settles (a stall ends, metadata comes)
        world.remote({ isPlaying: true, currentTime: at, playbackRate });
        let trackedAfterMs: number | null = null;
        for (let ms = 0; ms < 5000 && trackedAfterMs === null; ms += 10) {
          world.elapse(10);
          if (world.state.phase.name === 'tracking') trackedAfterMs = ms;
        }
        expect(trackedAfterMs).not.toBeNull();
        world.elapse(3000);
        // A muted element whose rate change unmutes it (WebKitGTK) is not nudged: it seeks from two
        // frames, and may be in one of those seeks now; back in step within a second.
        // While it struggles (seeks that did not hold), from a quarter second.
        const bySeeks = world.element.muted && world.rateUnmutes;
        const band = !bySeeks ? 0.05 : world.state.struggle.active(world.now) ? STRUGGLE_UNNUDGEABLE_SEEK_SEC : UNNUDGEABLE_SEEK_SEC;
        const inStep = () => world.state.phase.name === 'tracking' && Math.abs(world.element.currentTime - world.roomPosition()) < band;
        for (let ms = 0; bySeeks && ms < 1000 && !inStep(); ms += 10) world.elapse(10);
        expect(world.state.phase.name).toBe('tracking');
        expect(Math.abs(world.element.currentTime - world.roomPosition())).toBeLessThan(band);
      }),
      RUNS,
    );
  });
});
