import { shownRate } from './room-rate';
import { PLAYBACK_RATES } from './view';

const LISTED = PLAYBACK_RATES.split(' ').map(Number);

describe('shownRate', () => {
  it('shows the listed rate of which the element runs a nudge', () => {
    expect(shownRate(1.026, LISTED, 1)).toBe(1);
    expect(shownRate(0.95, LISTED, 1)).toBe(1);
    expect(shownRate(1.5 * 1.05, LISTED, 1.5)).toBe(1.5);
    expect(shownRate(0.5 * 0.96, LISTED, null)).toBe(0.5);
  });

  it('follows a change of the room rate to another listed one', () => {
    expect(shownRate(1.5, LISTED, 1)).toBe(1.5);
    expect(shownRate(1.25 * 1.02, LISTED, 1)).toBe(1.25);
  });

  it('keeps an unlisted room rate through its nudges, and shows a new unlisted one as it is', () => {
    expect(shownRate(1.1, LISTED, null)).toBe(1.1);
    expect(shownRate(1.1 * 1.04, LISTED, 1.1)).toBe(1.1);
    expect(shownRate(2.5, LISTED, 1.1)).toBe(2.5);
  });

  it('never takes a rate beyond the nudge for the one shown', () => {
    expect(shownRate(1.06, LISTED, 1)).toBe(1.06);
    expect(shownRate(1.06, LISTED, 1, 0.1)).toBe(1);
  });
});
