/**
 * The scripted session of the sync benchmark: which client does what, and when. Pure data.
 *
 * Client roles with N clients from the start (`c1` .. `cN`, N >= 2) plus one late joiner (`late`):
 * - `c1`: the room's creator; presses play at the start and seeks.
 * - `c2`: its network is delayed (a TCP proxy adds 150 ms each way to everything it exchanges with
 *   the companion server); it changes the rate to 1.5x and back.
 * - `c3` (N >= 3): its clock is off (+5 s in `Date`); it pauses and resumes. With N = 2, `c2` does.
 * - `c4` (N >= 4): its CPU is 4× slower (Chromium's CPU throttling, like a cheap phone); a viewer.
 * - `c5` .. `cN`: plain viewers.
 * - `late`: a plain viewer that opens the room mid-session.
 * - `firefox`, `webkit` (`--browsers`): one plain viewer in each other engine named, from the start;
 *   the first pauses and resumes, the second (if any) changes the rate, so that each engine acts.
 */
import type { ActionRecord, PhaseKind } from './report';

export type ScriptedAction =
  | { kind: 'play' | 'pause'; by: string }
  | { kind: 'seek' | 'rate'; by: string; value: number }
  | { kind: 'join'; by: string };

/** One step: at `atSec` after t0 the phase `name` begins, with the action if any. */
export interface ScenarioStep {
  atSec: number;
  name: string;
  kind: PhaseKind;
  action?: ScriptedAction;
}

export interface Roles {
  /** Client ids present from the start, `c1` .. `cN`. */
  initial: string[];
  late: string;
  /** The client behind the delaying proxy, if any. */
  delayed: string | null;
  /** The client with the skewed `Date`, if any. */
  skewed: string | null;
  /** The client whose CPU is throttled, if any. */
  throttled: string | null;
  seeker: string;
  pauser: string;
  rater: string;
}

export const LATE_JOINER_ID = 'late';

/**
 * Roles for `clients` initial Chromium clients (2 or more) and one viewer per engine of `others`
 * (its id is the engine's name). Throws below 2: sync needs someone to be in sync with.
 */
export function assignRoles(clients: number, others: readonly string[] = []): Roles {
  if (!Number.isInteger(clients) || clients < 2) throw new Error(`--clients must be an integer >= 2, got ${clients}`);
  const initial = [...Array.from({ length: clients }, (_, i) => `c${i + 1}`), ...others];
  return {
    initial,
    late: LATE_JOINER_ID,
    delayed: 'c2',
    skewed: clients >= 3 ? 'c3' : null,
    throttled: clients >= 4 ? 'c4' : null,
    seeker: 'c1',
    rater: others[1] ?? 'c2',
    pauser: others[0] ?? (clients >= 3 ? 'c3' : 'c2'),
  };
}

/** Where the seek goes (s): back into the clip, so the ~60 s session stays inside the 80 s clip. */
export const SEEK_TO_SEC = 6;

/** Session length after t0, s. */
export const SESSION_END_SEC = 64;

/**
 * The session: play, steady play, seek, pause, resume, 1.5x, 1x, late join, steady play with everyone.
 * Positions (room time): ~0 → 17 at the seek, back to 6 → 13 at the pause, 13 at the resume, 19 at
 * 1.5x, 28 at 1x, 34 at the late join, ~52 at the end.
 */
export function scenario(roles: Roles): ScenarioStep[] {
  return [
    { atSec: 0, name: 'play', kind: 'action', action: { kind: 'play', by: roles.seeker } },
    { atSec: 5, name: 'steady', kind: 'steady' },
    { atSec: 17, name: 'seek', kind: 'action', action: { kind: 'seek', by: roles.seeker, value: SEEK_TO_SEC } },
    { atSec: 24, name: 'pause', kind: 'action', action: { kind: 'pause', by: roles.pauser } },
    { atSec: 28, name: 'resume', kind: 'action', action: { kind: 'play', by: roles.pauser } },
    { atSec: 34, name: 'rate 1.5x', kind: 'action', action: { kind: 'rate', by: roles.rater, value: 1.5 } },
    { atSec: 40, name: 'rate 1x', kind: 'action', action: { kind: 'rate', by: roles.rater, value: 1 } },
    { atSec: 46, name: 'late join', kind: 'late-join', action: { kind: 'join', by: roles.late } },
    { atSec: 56, name: 'steady (all)', kind: 'steady' },
  ];
}

/** The action as recorded once performed. */
export function actionRecord(action: ScriptedAction, atMs: number): ActionRecord {
  return { kind: action.kind, clientId: action.by, value: 'value' in action ? action.value : undefined, atMs };
}
