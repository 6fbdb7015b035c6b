/**
 * The sync engine's tuning (./machine.ts): thresholds, windows and leads, in the units their names
 * say (SEC: seconds of media or wall time as documented, MS: milliseconds of wall time). The
 * correction loop's own dead band and nudge limits are in ./correction.ts (DEFAULT_TUNING); what the
 * engine learns per element is in ./latency.ts. Why each value is what it is: docs/sync.md.
 */

/** How often (ms) the correction loop measures. */
export const DEFAULT_TICK_MS = 100;
/**
 * After a start, a seek, `playing` or a new rate, the element's clock is not yet steady (Chromium: a
 * jump, a ~40 ms stand-still, then linear), so drift is measured only this long (ms) afterwards.
 */
export const SETTLE_MS = 250;
/** How long (ms) a remote action waits for its confirming SYNC reply before the engine acts on the provisional position. */
export const CONFIRM_TIMEOUT_MS = 1000;
/** Window (ms) in which further `seeked` events of the user (scrubbing) collapse into one trailing STATUS. */
export const DEFAULT_SEEK_PUBLISH_DELAY_MS = 200;
/** An unexpected seek closer than this (s) to the room while playing is the player's own (hls.js skipping a gap), not the user's. */
export const USER_SEEK_MIN_SEC = 0.3;
/** A SYNC reply whose position differs from the followed target by more than this (s) reveals a missed remote action. */
export const ACTION_JUMP_SEC = 0.25;
/** How far (s) a `seeked` may land from a scheduled start's target and still be the engine's. */
export const SCHEDULED_SEEK_TOLERANCE_SEC = 0.5;
/**
 * A jump of the drift by this much (s) between two measurements is a stall or freeze (the nudge moves
 * it by 5 ms per 100 ms at most); like a `waiting` event it may be caught up with a seek, at most once
 * per RECOVERY_COOLDOWN_MS (a starved machine must not seek over and over).
 */
export const DRIFT_JUMP_SEC = 0.05;
export const RECOVERY_COOLDOWN_MS = 5000;
/**
 * A stall ends when the element says `playing`, or when its clock has run this far (s) past where
 * it stalled: WebKitGTK says `waiting` after every seek and rate change while it plays on, and never
 * `playing` after (docs/browsers.md "WebKit").
 */
export const STALL_RUNS_SEC = 0.1;
/**
 * An element whose rate may not move (a muted one in WebKitGTK, where a rate change unmutes it and
 * the autoplay policy pauses it: machine.ts `nudgeable`) seeks in steady play from this drift (s),
 * two frames, instead of nudging from the dead band; the struggle guard still bounds its seeks.
 */
export const UNNUDGEABLE_SEEK_SEC = 0.06;
/**
 * A page that needed STRUGGLE_SEEKS catch-up seeks of the loop within STRUGGLE_WINDOW_MS did not
 * hold any of them (a starved CPU, a backgrounded tab): it stops seeking for STRUGGLE_MS, only nudges
 * (a seek only past STRUGGLE_SEEK_SEC), and the indicator says it cannot keep up (docs/sync.md
 * "Slow devices"). Another user's action still moves it.
 */
export const STRUGGLE_SEEKS = 3;
export const STRUGGLE_WINDOW_MS = 20_000;
export const STRUGGLE_MS = 30_000;
export const STRUGGLE_SEEK_SEC = 5;
/**
 * While struggling, an element that may not nudge (`UNNUDGEABLE_SEEK_SEC`) still seeks from this
 * drift (s): seeks are all it has, and without them it stayed up to STRUGGLE_SEEK_SEC off for
 * STRUGGLE_MS (found by the property tests with WebKitGTK's recorded events, docs/browsers.md
 * "Event orders"); a quarter second is about where a person notices the lips.
 */
export const STRUGGLE_UNNUDGEABLE_SEEK_SEC = 0.25;

/**
 * A change back to the room's rate that costs the playing element at least this much media time
 * (s; the learned `nudgeEnd` latency) makes the loop nudge with as few changes as can be: a nudge
 * starts at its largest, is not raised on the way, and ends that much ahead so the change back
 * lands level (lib/sync/machine.ts `costlyNudge`). WebKitGTK on a loaded machine: 15–50 ms a
 * change, and its nudges, raised tick by tick, each lost what the last had gained (docs/sync.md).
 */
export const RATE_CHANGE_COSTLY_SEC = 0.012;
/**
 * A loss after a rate change larger than this (s) is not the change's cost but something else in
 * the same readings (a freeze, a starved page) and is not learned: a cost learned from a 0.5 s
 * freeze ended a nudge 0.5 s ahead of the room (the bench with WebKitGTK, 2026-12-08).
 */
export const RATE_CHANGE_COST_MAX_SEC = 0.08;
/** Readings after one of the loop's rate changes over which its cost is measured (their median). */
export const RATE_COST_READINGS = 3;
/**
 * The steady loop decides on the median drift of the last DRIFT_MEDIAN_OF consecutive measurements
 * (~0.5 s at a tick per 100 ms), not on the last one: Firefox's currentTime is the position its
 * pipeline last published, so single reads jitter by up to ±20 ms around an element in step, past
 * the 15 ms dead band, and the rate would change several times a second (docs/browsers.md "Firefox").
 * A jump, a seek and the first measure after an action still decide at once.
 */
export const DRIFT_MEDIAN_OF = 5;
/** Two measurements further apart than this (ms) are not compared for jumps. */
export const JUMP_WINDOW_MS = 600;
/** SYNC requests kept waiting for a reply; older ones are dropped (their replies then count as plain statuses). */
export const MAX_PENDING_SYNCS = 8;

/** A paused element this close (s) to where the room will be once it runs starts at once instead of waiting ahead. */
export const START_AT_ONCE_SEC = 0.05;
/**
 * A start that comes late by up to this much (s of media; docs/sync.md "Catching up"): a common start
 * whose STATUS reached this page after the room had passed its paused position, or a scheduled start
 * whose seek took longer than its lead. With the data at hand the element starts at once and runs
 * faster until it is level, instead of one more seek ahead of the room, which a loaded machine may
 * again make too slowly. Later than this, it waits ahead of the room as before.
 */
export const CATCH_UP_MAX_SEC = 0.5;
/**
 * A catch-up closes its gap in this much wall time (s): the rate is the room rate × (1 + nudge) with
 * nudge = gap / (CATCH_UP_SEC × room rate), at most CATCH_UP_MAX_NUDGE (twice the room rate, pitch
 * preserved), so a 0.1 s gap runs at 1.2× for half a second and a 0.5 s gap at 2×.
 */
export const CATCH_UP_SEC = 0.5;
export const CATCH_UP_MAX_NUDGE = 1;
/** Data beyond the gap (s) that must be buffered for a catch-up: it must not stall while running faster. */
export const CATCH_UP_BUFFER_SEC = 1;
/**
 * Lead (s) of a common start: a user's play, or seek while playing, starts the room this long after
 * the action, everyone included (./machine.ts `publish`). It covers a member up to ~150 ms away
 * (the STATUS reaches them in one one-way delay; a farther one waits ahead of the room and starts when
 * it arrives there) and keeps the user's own wait under 250 ms.
 */
export const COMMON_LEAD_SEC = 0.2;

/**
 * A source that cannot seek where the room is (a host without HTTP Range, docs/hosting.md) still
 * reaches a room up to this far ahead (s of media) by a catch-up at up to twice the room rate, which
 * then takes at most this long; farther, the element waits, paused (`unreachable`).
 */
export const NO_SEEK_CATCH_UP_MAX_SEC = 3;
/** How often (ms) an element that cannot reach the room checks again (its seekable ranges may grow). */
export const UNREACHABLE_RECHECK_MS = 1000;
/**
 * A viewer without playback control whose element changed anyway (a key, a gesture) gets the room
 * state back and one notice per this many ms at most, so nothing they did not do floods the room's
 * socket with SYNC requests (the server's message limit) or the screen with notices.
 */
export const DENIED_RESYNC_MS = 2000;

/**
 * How long (ms) after an unmute that no person made a pause or a play that no person made either is
 * the browser's own: an autoplay policy pauses an element that becomes audible without a gesture
 * (WebKit, Chromium), WebKitGTK starts a paused element its pipeline unmuted, and neither is anyone's
 * choice (docs/browsers.md "No browser moves the room").
 */
export const BROWSER_AFTER_UNMUTE_MS = 600;

/**
 * How long (ms) after the engine's own pause a play that no person made is the browser's undoing of
 * it: WebKitGTK with hls.js plays the element again when a seek that was in flight at the pause lands
 * (27 ms after the pause in the run that showed it; a seek there takes up to 0.8 s). A person's press
 * in that time has user activation and stays theirs (docs/browsers.md "No browser moves the room").
 */
export const BROWSER_AFTER_OWN_PAUSE_MS = 1000;

/**
 * How long (ms) after the engine's own playbackRate change an unmute that no person made is the
 * engine's doing: WebKitGTK sets its pipeline's mute from the rate alone, so a nudge unmutes a muted
 * element, whose autoplay policy then pauses it (docs/browsers.md "WebKit").
 */
export const RATE_UNMUTE_MS = 300;
