/** @jest-environment node */
import { figuresMarkdown, type ResultsFile } from './markdown';

const client = { drift: null, vsRoom: null, engineSeeks: 0, engineRateChanges: 2, stalls: 0, sent: {}, indicator: null, longestSampleGapMs: 100, indicatorDriftMedianMs: null };

const results: ResultsFile = {
  meta: {
    date: '2026-11-21T08:08:00.000Z',
    clients: 2,
    cpus: 2,
    chromium: '156',
    commit: 'abcdef0123456789',
    dirty: false,
    loadAverage: { start: [0.5, 0.4, 0.3], end: [1, 0.5, 0.3] },
    roles: { c1: [], c2: ['network +150 ms each way'] },
  },
  phases: [
    {
      name: 'seek',
      kind: 'action',
      startSec: 17,
      endSec: 24,
      action: { kind: 'seek', clientId: 'c1', value: 6, atMs: 0, atSec: 17 },
      drift: { count: 70, median: 18.4, p95: 28.9, max: 140.2 },
      driftAfterConvergence: null,
      convergence: { convergedAfterMs: null, settledAfterMs: null, fromSec: 17 },
      clients: { c1: client, c2: { ...client, engineSeeks: 1 } },
    },
  ],
  targets: [{ name: 'no hard seek during steady play', pass: false, detail: 'steady/c2: 1' }],
};

describe('figuresMarkdown', () => {
  it('gives the run, one row per phase and one per target, with misses in bold', () => {
    const md = figuresMarkdown(results);
    expect(md).toContain('load average 0.5 0.4 0.3 at the start');
    expect(md).toContain('commit abcdef0,');
    expect(md).toContain('| seek (c1) | 18 / 29 / 140 | never | 0/1 | 2/2 |');
    expect(md).toContain('| no hard seek during steady play | **fail** | steady/c2: 1 |');
  });
});
