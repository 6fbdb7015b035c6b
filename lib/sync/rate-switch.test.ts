import { positionAt } from './correction';
import { rateSwitchAtMs } from './rate-switch';
import { COMMON_LEAD_SEC } from './tuning';

const playing = (currentTime: number, playbackRate: number, serverTimeMs: number) => ({ status: { isPlaying: true, currentTime, playbackRate }, serverTimeMs });

describe('rateSwitchAtMs', () => {
  it('finds the instant a 1× → 1.5× change published with the common lead takes effect, where both give one position', () => {
    const from = playing(10, 1, 5_000);
    // What the user's page publishes at 5 s: the position now + lead × (old − new rate).
    const to = playing(10 + COMMON_LEAD_SEC * (1 - 1.5), 1.5, 5_000);
    const atMs = rateSwitchAtMs(from, to);
    expect(atMs).toBeCloseTo(5_000 + COMMON_LEAD_SEC * 1000, 6);
    expect(positionAt(to, atMs)).toBeCloseTo(positionAt(from, atMs), 9);
  });

  it('is Infinity when the rate did not change, and in the past when the statuses can no longer meet', () => {
    expect(rateSwitchAtMs(playing(10, 1, 0), playing(12, 1, 1_000))).toBe(Infinity);
    expect(rateSwitchAtMs(playing(10, 1, 0), playing(10.5, 1.5, 0))).toBeLessThan(0);
  });
});
