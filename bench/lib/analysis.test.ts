/** @jest-environment node */
import {
  alignToGrid,
  clientDriftMs,
  convergence,
  countEngineEvents,
  firstFrameAt,
  indicatorShares,
  longestSampleGapMs,
  makeGrid,
  percentile,
  positionAt,
  roomAsMedia,
  spreadMs,
  summarize,
  type MediaSample,
} from './analysis';

function sample(t: number, ct: number, over: Partial<MediaSample> = {}): MediaSample {
  return { t, ct, present: true, paused: false, seeking: false, ended: false, playbackRate: 1, readyState: 4, ...over };
}

/** A steadily playing element: position `ct0` at `t0`, sampled every `everyMs`. */
function playing(t0: number, ct0: number, count: number, everyMs = 100, rate = 1): MediaSample[] {
  return Array.from({ length: count }, (_, i) => sample(t0 + i * everyMs, ct0 + ((i * everyMs) / 1000) * rate, { playbackRate: rate }));
}

describe('positionAt', () => {
  it('interpolates between two samples of continuous playback', () => {
    const samples = [sample(1000, 10), sample(1100, 10.1)];
    expect(positionAt(samples, 1030)).toBeCloseTo(10.03, 6);
  });

  it('does not smear a seek between two samples: the earlier sample is extrapolated instead', () => {
    const samples = [sample(1000, 10), sample(1100, 30)];
    expect(positionAt(samples, 1050)).toBeCloseTo(10.05, 6);
  });

  it('holds the position of a paused or seeking element', () => {
    expect(positionAt([sample(1000, 12, { paused: true }), sample(1100, 12, { paused: true })], 1080)).toBe(12);
    expect(positionAt([sample(1000, 12, { seeking: true, readyState: 1 })], 1080)).toBe(12);
  });

  it('extrapolates at the sample playbackRate after the last sample', () => {
    expect(positionAt([sample(1000, 10, { playbackRate: 1.5 })], 1200)).toBeCloseTo(10.3, 6);
  });

  it('knows nothing before the first sample, without a player, or from a stale sample', () => {
    const samples = [sample(1000, 10)];
    expect(positionAt(samples, 999)).toBeNull();
    expect(positionAt([sample(1000, 0, { present: false })], 1050)).toBeNull();
    expect(positionAt(samples, 1000 + 401)).toBeNull();
  });
});

describe('grid alignment', () => {
  it('aligns clients sampled at different instants onto one grid', () => {
    const a = playing(1000, 5, 30);
    const b = playing(1037, 5.037 - 0.02, 30); // 20 ms behind a, sampled 37 ms later
    const grid = makeGrid(1100, 3000, 100);
    const pa = alignToGrid(a, grid);
    const pb = alignToGrid(b, grid);
    grid.forEach((_, i) => expect(spreadMs([pa[i], pb[i]])).toBeCloseTo(20, 6));
  });

  it('leaves a client out until its first frame', () => {
    const samples = [sample(1000, 0, { present: false }), sample(1100, 0, { readyState: 1, paused: true }), ...playing(1200, 30, 5)];
    expect(firstFrameAt(samples)).toBe(1200);
    expect(alignToGrid(samples, [1100, 1200, 1300], firstFrameAt(samples))).toEqual([null, 30, expect.closeTo(30.1, 6)]);
  });

  it('treats the room status polls as an element playing at the room rate', () => {
    const room = roomAsMedia([
      { t: 1000, isPlaying: true, currentTime: 20, playbackRate: 1.5 },
      { t: 1100, isPlaying: true, currentTime: 20.15, playbackRate: 1.5 },
    ]);
    expect(positionAt(room, 1050)).toBeCloseTo(20.075, 6);
  });

  it('rejects a non-positive grid step', () => {
    expect(() => makeGrid(0, 10, 0)).toThrow('grid step');
  });
});

describe('drift', () => {
  it('takes the largest pairwise difference, in ms, among known positions', () => {
    expect(spreadMs([10, 10.02, 9.97, null])).toBeCloseTo(50, 6);
    expect(spreadMs([10, null])).toBeNull();
  });

  it('gives one client its largest difference to any other', () => {
    expect(clientDriftMs([10, 10.02, 9.97], 1)).toBeCloseTo(50, 6);
    expect(clientDriftMs([10, 10.02, 9.97], 0)).toBeCloseTo(30, 6);
    expect(clientDriftMs([null, 10], 0)).toBeNull();
    expect(clientDriftMs([10, null], 0)).toBeNull();
  });
});

describe('percentiles', () => {
  it('uses the nearest rank', () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(values, 95)).toBe(95);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile([10, 20], 50)).toBe(10);
    expect(percentile([7], 95)).toBe(7);
    expect(percentile([3, 1, 2], 100)).toBe(3);
  });

  it('refuses an empty set and summarizes only known values', () => {
    expect(() => percentile([], 95)).toThrow('empty');
    expect(summarize([null, 5, 1, null, 3])).toEqual({ count: 3, median: 3, p95: 5, max: 5 });
    expect(summarize([null])).toBeNull();
  });
});

describe('convergence', () => {
  const grid = makeGrid(0, 3000, 100);
  const opts = { fromMs: 0, untilMs: 3000, thresholdMs: 100, holdMs: 1000 };

  it('is the first instant from which the drift stays within the threshold for the hold time', () => {
    // Swings under 100 ms once at 300 ms, back over at 400 ms, and in for good from 600 ms.
    const series = grid.map((t) => (t < 300 ? 500 : t < 400 ? 80 : t < 600 ? 150 : 40));
    expect(convergence(series, grid, opts)).toEqual({ convergedAfterMs: 600, settledAfterMs: 600 });
  });

  it('reports a late blip: converged early, but settled only after the blip', () => {
    const series = grid.map((t) => (t < 200 ? 400 : t === 2000 ? 120 : 10));
    expect(convergence(series, grid, opts)).toEqual({ convergedAfterMs: 200, settledAfterMs: 2100 });
  });

  it('never converges when the drift stays over the threshold, and counts a silent client as not within', () => {
    expect(convergence(grid.map(() => 101), grid, opts)).toEqual({ convergedAfterMs: null, settledAfterMs: null });
    const series = grid.map((t) => (t === 2900 ? null : 10));
    expect(convergence(series, grid, opts)).toEqual({ convergedAfterMs: 0, settledAfterMs: null });
  });

  it('measures from the action, not from the grid start, and accepts a hold cut short by the window end', () => {
    const series = grid.map((t) => (t < 2700 ? 300 : 20));
    expect(convergence(series, grid, { ...opts, fromMs: 2050 })).toEqual({ convergedAfterMs: 650, settledAfterMs: 650 });
  });
});

describe('countEngineEvents', () => {
  it('counts only events not caused by the bench user action, within the window', () => {
    const events = [
      { t: 100, type: 'seeking', user: true },
      { t: 200, type: 'seeking', user: false },
      { t: 250, type: 'ratechange', user: false },
      { t: 300, type: 'seeking' },
      { t: 1000, type: 'seeking', user: false },
    ];
    expect(countEngineEvents(events, 'seeking', 0, 1000)).toBe(2);
    expect(countEngineEvents(events, 'ratechange', 0, 1000)).toBe(1);
  });
});

describe('indicatorShares', () => {
  it('gives the share of samples per sync-indicator state within the window', () => {
    const samples = [
      sample(0, 0, { indicator: 'correcting' }),
      sample(100, 0.1, { indicator: 'in-sync' }),
      sample(200, 0.2, { indicator: 'in-sync' }),
      sample(300, 0.3, { indicator: 'in-sync' }),
      sample(400, 0.4, { indicator: 'out-of-sync' }),
    ];
    expect(indicatorShares(samples, 0, 400)).toEqual({ correcting: 0.25, 'in-sync': 0.75 });
    expect(indicatorShares([sample(0, 0)], 0, 400)).toBeNull();
  });
});

describe('longestSampleGapMs', () => {
  it('finds the longest pause of the sampler within the window', () => {
    const samples = [sample(0, 0), sample(100, 0.1), sample(700, 0.7), sample(800, 0.8), sample(2000, 2)];
    expect(longestSampleGapMs(samples, 0, 1000)).toBe(600);
    expect(longestSampleGapMs(samples, 750, 1000)).toBe(0);
  });
});
