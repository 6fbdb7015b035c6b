/** The echo guard: which media events count as the engine's own. */
import { EXPECTATION_TTL_MS, ExpectedEvents, SEEK_MATCH_TOLERANCE_SEC, SEEKED_RAN_ON_MAX_SEC } from './expected-events';

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

  it("takes a seek that landed while playing for its own once it has run on, by no more than the time since it was set", () => {
    const expected = new ExpectedEvents(clock);
    expected.expect('seeked', 8.5);
    now += 300;
    // Paused, the landing is where it was set; playing at 1×, up to 0.3 s beyond it.
    expect(expected.consume('seeked', 8.74)).toBe(false);
    expect(expected.consume('seeked', 8.9, 1)).toBe(false);
    expect(expected.consume('seeked', 8.3, 1)).toBe(false);
    expect(expected.consume('seeked', 8.74, 1)).toBe(true);
  });

  it('takes no landing more than SEEKED_RAN_ON_MAX_SEC beyond for its own, however long ago the seek was set', () => {
    const expected = new ExpectedEvents(clock);
    expected.expect('seeked', 10);
    now += 5000;
    expect(expected.consume('seeked', 10 + SEEKED_RAN_ON_MAX_SEC + SEEK_MATCH_TOLERANCE_SEC + 0.01, 1)).toBe(false);
    expect(expected.consume('seeked', 10 + SEEKED_RAN_ON_MAX_SEC, 1)).toBe(true);
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
