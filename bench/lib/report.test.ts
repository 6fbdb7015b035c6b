/** @jest-environment node */
import type { MediaEvent, MediaSample, RoomSample } from './analysis';
import { analyzeRun, type ClientRecord, type Phase } from './report';

const T0 = 1_000_000;

/**
 * Samples every 100 ms from `fromMs` to `toMs` of an element whose position is `position(t)` (s),
 * playing unless `paused(t)`.
 */
function track(fromMs: number, toMs: number, position: (t: number) => number, paused: (t: number) => boolean = () => false): MediaSample[] {
  const out: MediaSample[] = [];
  for (let t = fromMs; t < toMs; t += 100) {
    out.push({ t, present: true, ct: position(t), paused: paused(t), seeking: false, ended: false, playbackRate: 1, readyState: 4 });
  }
  return out;
}

function client(id: string, samples: MediaSample[], over: Partial<ClientRecord> = {}): ClientRecord {
  return { id, conditions: [], delayed: false, skewed: false, late: false, samples, events: [], frames: [], ...over };
}

/** The room plays from 0 s at T0, is seeked to 40 s at T0 + 5 s. */
const roomPosition = (t: number) => (t < T0 + 5000 ? (t - T0) / 1000 : 40 + (t - T0 - 5000) / 1000);
const room: RoomSample[] = Array.from({ length: 150 }, (_, i) => {
  const t = T0 - 1000 + i * 100;
  return { t, isPlaying: true, currentTime: roomPosition(t), playbackRate: 1 };
});

const phases: Phase[] = [
  { name: 'steady', kind: 'steady', startMs: T0, endMs: T0 + 5000 },
  { name: 'seek', kind: 'action', startMs: T0 + 5000, endMs: T0 + 10000, action: { kind: 'seek', clientId: 'a', value: 40, atMs: T0 + 5000 } },
];

/** Client b follows the room `lagMs` behind and reaches the seek target `followAfterMs` after it. */
function run(lagMs: number, followAfterMs: number, bEvents: MediaEvent[] = []) {
  const a = client('a', track(T0 - 500, T0 + 10000, roomPosition), {
    events: [{ t: T0 + 5000, type: 'seeking', user: true, value: 40 }],
  });
  const bPosition = (t: number) => {
    if (t < T0 + 5000 + followAfterMs) return (t - T0 - lagMs) / 1000;
    return roomPosition(t) - lagMs / 1000;
  };
  const b = client('b', track(T0 - 500, T0 + 10000, bPosition), { delayed: true, conditions: ['network +150 ms each way'], events: bEvents });
  return analyzeRun({ clients: [a, b], room, phases, t0Ms: T0, stepMs: 100 });
}

function verdict(report: ReturnType<typeof run>, startsWith: string): boolean {
  const target = report.targets.find((t) => t.name.startsWith(startsWith));
  if (!target) throw new Error(`no target ${startsWith}`);
  return target.pass;
}

/** Chromium's a and b in step; WebKit's w follows the seek `webkitAfterMs` after it, 40 ms behind. */
function mixedRun(webkitAfterMs: number) {
  const a = client('a', track(T0 - 500, T0 + 10000, roomPosition));
  const b = client('b', track(T0 - 500, T0 + 10000, (t) => roomPosition(t) - 0.01));
  const w = client('w', track(T0 - 500, T0 + 10000, (t) => (t < T0 + 5000 + webkitAfterMs ? (t - T0) / 1000 : roomPosition(t)) - 0.04), { engine: 'webkit' });
  return analyzeRun({ clients: [a, b, w], room, phases, t0Ms: T0, stepMs: 100 });
}

describe('analyzeRun with other engines in the room', () => {
  it('times each engine from the action and holds WebKit to 1 s, the widest pair to 50 ms and Chromium alone to 33 ms', () => {
    const report = mixedRun(700);
    expect(report.phases[1].engineConvergedAfterMs).toEqual({ chromium: 0, webkit: 700 });
    expect(verdict(report, 'webkit: in step')).toBe(true);
    expect(verdict(report, 'chromium: in step')).toBe(true);
    // The whole room waited for WebKit, and is held to WebKit's 1 s.
    expect(report.phases[1].convergence?.convergedAfterMs).toBe(700);
    expect(report.targets.find((t) => t.name.startsWith('in step after'))?.name).toContain('within 1000 ms');
    expect(verdict(report, 'in step after')).toBe(true);
    expect(verdict(report, 'after a remote')).toBe(true);
    expect(report.targets.find((t) => t.name.startsWith('steady play: p95'))?.name).toContain('50 ms across chromium, webkit');
    expect(verdict(report, 'steady play: p95')).toBe(true);
    expect(verdict(report, "steady play among Chromium's clients")).toBe(true);
  });

  it('fails WebKit past 1 s, and leaves runs of one engine as they were', () => {
    expect(verdict(mixedRun(1500), 'webkit: in step')).toBe(false);
    expect(verdict(mixedRun(1500), 'in step after')).toBe(false);
    const single = run(20, 200);
    expect(single.phases[1].engineConvergedAfterMs).toBeUndefined();
    expect(single.targets.some((t) => t.name.startsWith('chromium:'))).toBe(false);
  });
});

describe('analyzeRun', () => {
  it('passes the steady targets when the clients are one frame apart at most', () => {
    const report = run(20, 800);
    const steady = report.phases[0];
    expect(steady.drift?.p95).toBeCloseTo(20, 0);
    expect(steady.clients.b.vsRoom?.medianSigned).toBeCloseTo(-20, 0);
    expect(verdict(report, 'steady play: p95')).toBe(true);
    expect(verdict(report, 'steady play: max')).toBe(true);
    expect(verdict(report, 'delayed client b')).toBe(true);
  });

  it('fails the steady targets at 50 ms apart, for the room and for the delayed client', () => {
    const report = run(50, 800);
    expect(verdict(report, 'steady play: p95')).toBe(false);
    expect(verdict(report, 'steady play: max')).toBe(true);
    expect(verdict(report, 'delayed client b')).toBe(false);
  });

  it('times convergence after a remote seek from the action', () => {
    const quick = run(20, 200);
    expect(quick.phases[1].convergence?.convergedAfterMs).toBe(200);
    expect(quick.phases[1].driftAfterConvergence?.max).toBeCloseTo(20, 0);
    expect(verdict(quick, 'after a remote')).toBe(true);
    expect(verdict(quick, 'in step after seek')).toBe(true);

    const slow = run(20, 800);
    expect(slow.phases[1].convergence?.convergedAfterMs).toBe(800);
    expect(verdict(slow, 'after a remote')).toBe(false);
    expect(verdict(slow, 'in step after seek')).toBe(false);
  });

  it('reads 0 ms when the clients stay in sync through an action between two grid instants', () => {
    const a = client('a', track(T0 - 500, T0 + 10000, roomPosition));
    const b = client('b', track(T0 - 480, T0 + 10000, (t) => roomPosition(t) - 0.01));
    const report = analyzeRun({
      clients: [a, b],
      room,
      phases: [{ name: 'rate', kind: 'action', startMs: T0 + 6050, endMs: T0 + 9000, action: { kind: 'rate', clientId: 'a', value: 1, atMs: T0 + 6050 } }],
      t0Ms: T0,
      stepMs: 100,
    });
    expect(report.phases[0].convergence).toMatchObject({ convergedAfterMs: 0, settledAfterMs: 0, fromSec: 6.05 });
  });

  it('counts the engine hard seeks per client and phase, not the user own seek', () => {
    const calm = run(20, 800, [{ t: T0 + 5700, type: 'seeking', user: false }]);
    expect(calm.phases[1].clients.a.engineSeeks).toBe(0);
    expect(calm.phases[1].clients.b.engineSeeks).toBe(1);
    expect(verdict(calm, 'at most 1 hard seek')).toBe(true);
    expect(verdict(calm, 'no hard seek during steady')).toBe(true);

    const busy = run(20, 800, [
      { t: T0 + 2000, type: 'seeking', user: false },
      { t: T0 + 5700, type: 'seeking', user: false },
      { t: T0 + 6300, type: 'seeking', user: false },
    ]);
    expect(verdict(busy, 'at most 1 hard seek')).toBe(false);
    expect(verdict(busy, 'no hard seek during steady')).toBe(false);
  });

  it('fails the late-join target when there is no late joiner to measure', () => {
    expect(verdict(run(20, 800), 'late joiner')).toBe(false);
  });

  it('times the late joiner from its first frame and only counts it from then', () => {
    const late = client(
      'late',
      [
        ...track(T0 + 1000, T0 + 2000, () => 0, () => true).map((s) => ({ ...s, readyState: 0 })),
        ...track(T0 + 2000, T0 + 5000, (t) => (t < T0 + 3000 ? roomPosition(t) - 0.5 : roomPosition(t))),
      ],
      { late: true },
    );
    const a = client('a', track(T0 - 500, T0 + 5000, roomPosition));
    const report = analyzeRun({
      clients: [a, late],
      room,
      phases: [{ name: 'late join', kind: 'late-join', startMs: T0 + 1000, endMs: T0 + 5000, action: { kind: 'join', clientId: 'late', atMs: T0 + 1000 } }],
      t0Ms: T0,
      stepMs: 100,
    });
    expect(report.firstFrameSec.late).toBe(2);
    expect(report.phases[0].convergence).toMatchObject({ fromSec: 2, convergedAfterMs: 1000 });
    expect(verdict(report, 'late joiner')).toBe(true);
  });
});
