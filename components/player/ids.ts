/**
 * Element ids shared by the player and the words under it, so that a disabled control points to the
 * sentence that says why (aria-describedby) without one module importing the other.
 */

/** The note under the player that says the source cannot seek (a host without HTTP Range), which the disabled seek bar points to. */
export const NO_RANGE_REASON_ID = 'no-range-reason';

/** The words that say why play and seek are disabled (./watch-only-reason.tsx), which the play button points to. */
export const WATCH_ONLY_REASON_ID = 'watch-only-reason';
