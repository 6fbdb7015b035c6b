/** The echo guard: which media events count as the engine's own. */
import { EXPECTATION_TTL_MS, ExpectedEvents } from './expected-events';

describe('ExpectedEvents', () => {
  let now = 0;
  const clock = () => now;
  beforeEach(() => {
    now = 1000;
  });

  it('consumes one expected event per change', () => {
    const expected = new ExpectedEvents(clock);
    expected.expect('pause');
    expect(expected.consume('pause')).toBe(true);
    expect(expected.consume('pause')).toBe(false);
  });

  it('matches a seek by the position it set, within 50 ms', () => {
    const expected = new ExpectedEvents(clock);
    expected.expect('seeked', 20);
    expect(expected.consume('seeked', 50)).toBe(false);
    expect(expected.consume('seeked', 20.04)).toBe(true);
  });

  it('tells whether a seek to a position is pending without consuming it (its `seeking` comes before its `seeked`)', () => {
    const expected = new ExpectedEvents(clock);
    expected.expect('seeked', 20);
    expect(expected.pending('seeked', 50)).toBe(false);
    expect(expected.pending('seeked', 20)).toBe(true);
    expect(expected.consume('seeked', 20)).toBe(true);
    expect(expected.pending('seeked', 20)).toBe(false);
  });

  it('matches a rate change by the rate it set', () => {
    const expected = new ExpectedEvents(clock);
    expected.expect('ratechange', 1.5);
    expect(expected.consume('ratechange', 2)).toBe(false);
    expect(expected.consume('ratechange', 1.5)).toBe(true);
  });

  it('forgets an expectation whose event never came', () => {
    const expected = new ExpectedEvents(clock);
    expected.expect('play');
    now += EXPECTATION_TTL_MS.play + 1;
    expect(expected.consume('play')).toBe(false);
  });

  it('cancel drops one pending expectation of that kind', () => {
    const expected = new ExpectedEvents(clock);
    expected.expect('play');
    expected.expect('pause');
    expected.cancel('play');
    expect(expected.has('play')).toBe(false);
    expect(expected.has('pause')).toBe(true);
  });
});
