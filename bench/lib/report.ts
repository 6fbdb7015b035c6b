/**
 * Turns one benchmark run (every client's samples and events, the room's status polls, the phases)
 * into the figures of docs/benchmarks.md "Sync benchmark" and a pass/fail verdict per target. Pure.
 */
import {
  alignToGrid,
  clientDriftMs,
  convergence,
  countEngineEvents,
  firstFrameAt,
  indicatorShares,
  longestSampleGapMs,
  makeGrid,
  positionAt,
  roomAsMedia,
  spreadMs,
  summarize,
  type Convergence,
  type MediaEvent,
  type MediaSample,
  type RoomSample,
  type Summary,
} from './analysis';
import type { EngineName as OtherEngine } from '../../e2e/support/engines';
import type { PlaybackState } from '@/lib/contract/playback';

/** The sync targets (loopback, 30 fps clip). */
export const TARGETS = {
  /** Steady play: p95 of the inter-client drift (one frame at 30 fps), ms. */
  steadyP95Ms: 33,
  /** Steady play: largest inter-client drift, ms. */
  steadyMaxMs: 100,
  /** "In sync" after an action: every client within this of every other, ms. */
  inSyncMs: 100,
  /** After a play, pause, seek or rate change: everyone in step within this of the action (p95 over the actions), ms. */
  actionConvergeMs: 300,
  /** Late joiner: in sync within this of its first frame, ms. */
  lateJoinConvergeMs: 1000,
  /** Hard seeks one client may make for one remote action. */
  maxSeeksPerAction: 1,
  /**
   * With other engines in the room (`--browsers`): everyone in step within this of each action,
   * ms, per engine (docs/browsers.md "Figures"), and the steady p95 of the widest pair across them.
   */
  engineActionConvergeMs: { chromium: 300, firefox: 300, webkit: 1000 },
  enginesSteadyP95Ms: 50,
} as const;

/** The browser engine a client ran in (`--browsers`, docs/browsers.md); Chromium when absent. */
export type EngineName = 'chromium' | OtherEngine;

/** The engine of `client` (records from before `--browsers` were all Chromium's). */
export function engineOf(client: Pick<ClientRecord, 'engine'>): EngineName {
  return client.engine ?? 'chromium';
}

/**
 * How long (ms) the drift must stay within `inSyncMs` for the clients to count as converged: one
 * grid instant under the line while still swinging through it is not "in sync".
 */
export const CONVERGENCE_HOLD_MS = 1000;

/** A WebSocket frame one client sent or received, by protobuf message type name (`STATUS`, `SYNC`, ...). */
export interface FrameRecord {
  /** Node's clock when Playwright reported it, Unix ms (a few ms after the page saw it). */
  t: number;
  dir: 'sent' | 'received';
  type: string;
  /** The frame's `timestamp` (the sender's clock, Unix ms), when set. */
  timestampMs?: number;
  /** The playback status it carries, when it carries one. */
  status?: PlaybackState;
}

/** Everything recorded about one client (one browser context, one user). */
export interface ClientRecord {
  /** `c1`, `c2`, ... and `late` for the late joiner. */
  id: string;
  /** What is special about it, e.g. `network +150 ms`, `clock +5000 ms`, `late joiner`; empty when nothing. */
  conditions: string[];
  delayed: boolean;
  /** Its CPU runs slower (Chromium's throttling); absent in runs recorded before it existed. */
  throttled?: boolean;
  skewed: boolean;
  late: boolean;
  /** The browser engine it ran in; absent = Chromium. Only Chromium's clients have `frames`. */
  engine?: EngineName;
  samples: MediaSample[];
  events: MediaEvent[];
  frames: FrameRecord[];
  /**
   * The page's sync engine's decisions (its debug record, docs/sync.md "Debugging"), for the other
   * engines' clients, whose drivers cannot read the page's console; absent for Chromium's.
   */
  decisions?: EngineDecision[];
}

/** One decision of a page's sync engine as its debug record lists it; `t` is the page's clock, Unix ms. */
export interface EngineDecision {
  t: number;
  kind: string;
  phase: string;
  detail: string;
  event?: string;
}

export type PhaseKind = 'action' | 'steady' | 'late-join';

/** A user action the bench performed in one page (or, for `join`, the late joiner opening the room). */
export interface ActionRecord {
  kind: 'play' | 'pause' | 'seek' | 'rate' | 'join';
  clientId: string;
  /** Seek target (s) or playbackRate. */
  value?: number;
  /** Real time the page performed it, Unix ms. */
  atMs: number;
}

/** A named stretch of the session, from `startMs` to `endMs` (real Unix ms). */
export interface Phase {
  name: string;
  kind: PhaseKind;
  startMs: number;
  endMs: number;
  action?: ActionRecord;
}

export interface RunInput {
  clients: ClientRecord[];
  room: RoomSample[];
  phases: Phase[];
  /** Start of the session (t = 0 s in the figures), Unix ms. */
  t0Ms: number;
  /** Grid step, ms (100 in the benchmark). */
  stepMs: number;
}

/** Drift of one client against the room's expected position (ms); positive = ahead of the room. */
export interface RoomDrift {
  medianSigned: number;
  p95Abs: number;
  maxAbs: number;
}

export interface ClientPhaseFigures {
  /** Largest |Δ| to any other client at each instant, ms. */
  drift: Summary | null;
  vsRoom: RoomDrift | null;
  /** `seeking` events not caused by the bench's own action on this client. */
  engineSeeks: number;
  /** `ratechange` events not caused by the bench's own action on this client. */
  engineRateChanges: number;
  /** `waiting` events (the element ran out of data). */
  stalls: number;
  /** WebSocket frames this client sent, by type. */
  sent: Record<string, number>;
  /** Share (0–1) of the phase the app's sync indicator showed each state; null when it has none. */
  indicator: Record<string, number> | null;
  /** Longest gap between this page's 100 ms samples, ms: over ~250 the renderer was starved or blocked. */
  longestSampleGapMs: number;
  /** Median drift the indicator itself reported (`data-drift-ms`, the engine's sign), ms; null when none. */
  indicatorDriftMedianMs: number | null;
}

export interface PhaseFigures {
  name: string;
  kind: PhaseKind;
  /** Seconds from t0. */
  startSec: number;
  endSec: number;
  action?: ActionRecord & { atSec: number };
  /** Inter-client drift (largest pairwise |Δ| at each 100 ms instant) over the whole phase, ms. */
  drift: Summary | null;
  /** The same once converged (from `convergence.convergedAfterMs` on), for action phases. */
  driftAfterConvergence: Summary | null;
  /** For actions from the action; for the late join from the joiner's first frame (`fromSec`). */
  convergence?: Convergence & { fromSec: number };
  /**
   * For actions, per engine in the room: ms from the action until that engine's clients and
   * Chromium's are all within `inSyncMs` of each other, holding (for Chromium: its clients among
   * themselves); null if never. Absent with one engine.
   */
  engineConvergedAfterMs?: Partial<Record<EngineName, number | null>>;
  clients: Record<string, ClientPhaseFigures>;
}

/** What the plot draws: per-client drift against the room and the inter-client spread on the grid. */
export interface Series {
  /** Seconds from t0. */
  tSec: number[];
  spreadMs: (number | null)[];
  vsRoomMs: Record<string, (number | null)[]>;
}

export interface TargetResult {
  name: string;
  pass: boolean;
  detail: string;
}

export interface RunReport {
  /**
   * Per client: median of (timestamp − real time at which it was sent), ms, over the STATUS, SYNC and
   * CHECK_STATUS frames it sent: ~0 when the engine corrects its clock offset (a few ms of reporting
   * delay included), the skew itself when it does not. Null when it sent no stamped frame.
   */
  outgoingTimestampErrorMs: Record<string, number | null>;
  phases: PhaseFigures[];
  series: Series;
  targets: TargetResult[];
  /** Per client over the whole session: frames sent per minute by type. */
  framesPerMinute: Record<string, Record<string, number>>;
  /** Seconds from t0 to each client's first frame (the late joiner's matters). */
  firstFrameSec: Record<string, number | null>;
}

function round(value: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

function roundSummary(summary: Summary | null): Summary | null {
  return summary && { count: summary.count, median: round(summary.median), p95: round(summary.p95), max: round(summary.max) };
}

function medianOrNull(values: (number | null)[]): number | null {
  const summary = summarize(values);
  return summary && round(summary.median);
}

function roundShares(shares: Record<string, number> | null): Record<string, number> | null {
  return shares && Object.fromEntries(Object.entries(shares).map(([k, v]) => [k, round(v, 2)]));
}

function inRange(grid: number[], fromMs: number, untilMs: number): number[] {
  const out: number[] = [];
  grid.forEach((t, i) => {
    if (t >= fromMs && t < untilMs) out.push(i);
  });
  return out;
}

function countFrames(frames: FrameRecord[], fromMs: number, untilMs: number): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const f of frames) {
    if (f.dir === 'sent' && f.t >= fromMs && f.t < untilMs) counts[f.type] = (counts[f.type] ?? 0) + 1;
  }
  return counts;
}

/** Analyses one run: per-phase figures, the plot series and the target verdicts. */
export function analyzeRun(input: RunInput): RunReport {
  const { clients, phases, t0Ms, stepMs } = input;
  if (phases.length === 0) throw new Error('a run needs at least one phase');
  const startMs = phases[0].startMs;
  const endMs = phases[phases.length - 1].endMs;
  const grid = makeGrid(startMs, endMs, stepMs);
  const sortedRoom = roomAsMedia([...input.room].sort((a, b) => a.t - b.t));

  const firstFrames = clients.map((c) => firstFrameAt(c.samples));
  const sortedSamples = clients.map((c) => [...c.samples].sort((a, b) => a.t - b.t));
  const positions = clients.map((_c, i) => alignToGrid(sortedSamples[i], grid, firstFrames[i]));
  /**
   * Drift series on a grid of its own that starts at `fromMs` (an action, a first frame), so that
   * "in sync right away" reads 0 ms rather than the distance to the next instant of the main grid.
   */
  const seriesFrom = (fromMs: number, untilMs: number, client: number | number[] | null) => {
    const own = makeGrid(fromMs, untilMs, stepMs);
    const at = own.map((t) => sortedSamples.map((samples, i) => (firstFrames[i] === null || t < (firstFrames[i] as number) ? null : positionAt(samples, t))));
    const among = (p: (number | null)[], group: number[]) => spreadMs(group.map((i) => p[i]));
    return { grid: own, series: at.map((p) => (client === null ? spreadMs(p) : Array.isArray(client) ? among(p, client) : clientDriftMs(p, client))) };
  };
  /** `client`: null = every client, an index = that client against the others, a list = the widest pair among those. */
  const converge = (fromMs: number, untilMs: number, client: number | number[] | null) => {
    const { grid: own, series } = seriesFrom(fromMs, untilMs, client);
    return convergence(series, own, { fromMs, untilMs, thresholdMs: TARGETS.inSyncMs, holdMs: CONVERGENCE_HOLD_MS });
  };
  const engines = [...new Set(clients.map(engineOf))];
  /** The present (not late) clients of `engine`, by index. */
  const clientsOf = (engine: EngineName) => clients.flatMap((c, i) => (engineOf(c) === engine && !c.late ? [i] : []));
  const roomPositions = grid.map((t) => positionAt(sortedRoom, t, 1000));
  const instants = grid.map((_, g) => clients.map((_c, i) => positions[i][g]));
  const spread = instants.map((at) => spreadMs(at));
  const perClientDrift = clients.map((_c, i) => instants.map((at) => clientDriftMs(at, i)));
  const vsRoom = clients.map((_c, i) =>
    grid.map((_t, g) => {
      const own = positions[i][g];
      const room = roomPositions[g];
      return own === null || room === null ? null : (own - room) * 1000;
    }),
  );

  const phaseFigures: PhaseFigures[] = phases.map((phase) => {
    const idx = inRange(grid, phase.startMs, phase.endMs);
    let conv: PhaseFigures['convergence'];
    let driftAfterConvergence: Summary | null = null;
    let engineConvergedAfterMs: PhaseFigures['engineConvergedAfterMs'];
    if (phase.kind === 'action' && phase.action) {
      const c = converge(phase.action.atMs, phase.endMs, null);
      conv = { ...c, fromSec: round((phase.action.atMs - t0Ms) / 1000, 2) };
      if (engines.length > 1) {
        const atMs = phase.action.atMs;
        engineConvergedAfterMs = Object.fromEntries(
          engines.map((engine) => [engine, converge(atMs, phase.endMs, [...new Set([...clientsOf('chromium'), ...clientsOf(engine)])]).convergedAfterMs]),
        );
      }
    } else if (phase.kind === 'late-join') {
      const joiner = clients.findIndex((c) => c.late);
      const from = joiner >= 0 ? firstFrames[joiner] : null;
      if (joiner >= 0 && from !== null && from < phase.endMs) {
        const c = converge(from, phase.endMs, joiner);
        conv = { ...c, fromSec: round((from - t0Ms) / 1000, 2) };
      } else {
        conv = { convergedAfterMs: null, settledAfterMs: null, fromSec: NaN };
      }
    }
    if (conv && conv.convergedAfterMs !== null && Number.isFinite(conv.fromSec)) {
      const from = t0Ms + conv.fromSec * 1000 + conv.convergedAfterMs;
      driftAfterConvergence = roundSummary(summarize(inRange(grid, from, phase.endMs).map((i) => spread[i])));
    }

    const clientFigures: Record<string, ClientPhaseFigures> = {};
    clients.forEach((client, ci) => {
      const roomValues = idx.map((i) => vsRoom[ci][i]).filter((v): v is number => v !== null);
      const absRoom = summarize(roomValues.map(Math.abs));
      const signed = summarize(roomValues);
      clientFigures[client.id] = {
        drift: roundSummary(summarize(idx.map((i) => perClientDrift[ci][i]))),
        vsRoom: absRoom && signed ? { medianSigned: round(signed.median), p95Abs: round(absRoom.p95), maxAbs: round(absRoom.max) } : null,
        engineSeeks: countEngineEvents(client.events, 'seeking', phase.startMs, phase.endMs),
        engineRateChanges: countEngineEvents(client.events, 'ratechange', phase.startMs, phase.endMs),
        stalls: countEngineEvents(client.events, 'waiting', phase.startMs, phase.endMs),
        sent: countFrames(client.frames, phase.startMs, phase.endMs),
        indicator: roundShares(indicatorShares(client.samples, phase.startMs, phase.endMs)),
        longestSampleGapMs: Math.round(longestSampleGapMs(sortedSamples[ci], phase.startMs, phase.endMs)),
        indicatorDriftMedianMs: medianOrNull(
          client.samples.filter((x) => x.t >= phase.startMs && x.t < phase.endMs).map((x) => x.indicatorDriftMs ?? null),
        ),
      };
    });

    return {
      name: phase.name,
      kind: phase.kind,
      startSec: round((phase.startMs - t0Ms) / 1000, 2),
      endSec: round((phase.endMs - t0Ms) / 1000, 2),
      action: phase.action && { ...phase.action, atSec: round((phase.action.atMs - t0Ms) / 1000, 2) },
      drift: roundSummary(summarize(idx.map((i) => spread[i]))),
      driftAfterConvergence,
      convergence: conv,
      ...(engineConvergedAfterMs ? { engineConvergedAfterMs } : {}),
      clients: clientFigures,
    };
  });

  const minutes = (endMs - startMs) / 60_000;
  const framesPerMinute: Record<string, Record<string, number>> = {};
  const firstFrameSec: Record<string, number | null> = {};
  clients.forEach((client, ci) => {
    const counts = countFrames(client.frames, startMs, endMs);
    framesPerMinute[client.id] = Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, round(v / minutes)]));
    firstFrameSec[client.id] = firstFrames[ci] === null ? null : round(((firstFrames[ci] as number) - t0Ms) / 1000, 2);
  });

  const report: RunReport = {
    outgoingTimestampErrorMs: Object.fromEntries(
      clients.map((c) => [
        c.id,
        medianOrNull(c.frames.filter((f) => f.dir === 'sent' && f.timestampMs).map((f) => (f.timestampMs as number) - f.t)),
      ]),
    ),
    phases: phaseFigures,
    series: {
      tSec: grid.map((t) => round((t - t0Ms) / 1000, 2)),
      spreadMs: spread.map((v) => (v === null ? null : round(v))),
      vsRoomMs: Object.fromEntries(clients.map((c, ci) => [c.id, vsRoom[ci].map((v) => (v === null ? null : round(v)))])),
    },
    targets: [],
    framesPerMinute,
    firstFrameSec,
  };

  const steadyValues = (series: (number | null)[]) =>
    phases.filter((p) => p.kind === 'steady').flatMap((p) => inRange(grid, p.startMs, p.endMs).map((i) => series[i]));
  const chromiumOnly = clientsOf('chromium');
  report.targets = evaluateTargets(report, {
    steadySpread: summarize(steadyValues(spread)),
    // The widest pair among Chromium's clients alone, when other engines are in the room.
    ...(engines.length > 1 && chromiumOnly.length > 1
      ? { steadyChromiumSpread: summarize(steadyValues(instants.map((at) => spreadMs(at.filter((_p, i) => chromiumOnly.includes(i)))))) }
      : {}),
    engines,
    steadyPerClient: Object.fromEntries(clients.map((c, ci) => [c.id, summarize(steadyValues(perClientDrift[ci]))])),
    clients,
  });
  return report;
}

function fmt(value: number | null | undefined): string {
  return value === null || value === undefined || !Number.isFinite(value) ? '—' : `${Math.round(value)}`;
}

/** Verdicts on the sync targets, from the phase figures and the steady-play drift over all steady phases. */
export function evaluateTargets(
  report: Pick<RunReport, 'phases'>,
  steady: {
    steadySpread: Summary | null;
    steadyPerClient: Record<string, Summary | null>;
    clients: Pick<ClientRecord, 'id' | 'delayed' | 'skewed' | 'throttled' | 'conditions'>[];
    /** The engines in the room (Chromium alone when absent). */
    engines?: EngineName[];
    /** The widest pair among Chromium's clients alone, with other engines in the room. */
    steadyChromiumSpread?: Summary | null;
  },
): TargetResult[] {
  const results: TargetResult[] = [];
  const s = steady.steadySpread;
  const engines = steady.engines ?? ['chromium'];
  const mixed = engines.length > 1;
  const steadyP95Ms = mixed ? TARGETS.enginesSteadyP95Ms : TARGETS.steadyP95Ms;
  results.push({
    name: `steady play: p95 inter-client drift <= ${steadyP95Ms} ms${mixed ? ` across ${engines.join(', ')}` : ''}`,
    pass: s !== null && s.p95 <= steadyP95Ms,
    detail: s ? `p95 ${fmt(s.p95)} ms (median ${fmt(s.median)}, ${s.count} instants)` : 'no steady-play samples',
  });
  if (steady.steadyChromiumSpread !== undefined) {
    const c = steady.steadyChromiumSpread;
    results.push({
      name: `steady play among Chromium's clients: p95 <= ${TARGETS.steadyP95Ms} ms`,
      pass: c !== null && c.p95 <= TARGETS.steadyP95Ms,
      detail: c ? `p95 ${fmt(c.p95)} ms (median ${fmt(c.median)})` : 'no steady-play samples',
    });
  }
  if (mixed) {
    for (const engine of engines) {
      const limit = TARGETS.engineActionConvergeMs[engine];
      const times = report.phases
        .filter((p) => p.kind === 'action' && p.engineConvergedAfterMs)
        .map((p) => ({ name: p.name, ms: p.engineConvergedAfterMs?.[engine] ?? null }));
      results.push({
        name: `${engine}: in step (within ${TARGETS.inSyncMs} ms of Chromium's clients) within ${limit} ms of every action`,
        pass: times.length > 0 && times.every((t) => t.ms !== null && t.ms <= limit),
        detail: times.map((t) => `${t.name} ${t.ms === null ? 'never' : fmt(t.ms)}`).join(', ') + ' ms',
      });
    }
  }
  results.push({
    name: `steady play: max inter-client drift <= ${TARGETS.steadyMaxMs} ms`,
    pass: s !== null && s.max <= TARGETS.steadyMaxMs,
    detail: s ? `max ${fmt(s.max)} ms` : 'no steady-play samples',
  });

  // The whole room is in step once its slowest engine is: with WebKit in it, within WebKit's 1 s
  // (docs/browsers.md "Figures": "≤ 300 ms for Chromium + Firefox and ≤ 1 s with WebKit").
  const actionConvergeMs = mixed ? Math.max(...engines.map((engine) => TARGETS.engineActionConvergeMs[engine])) : TARGETS.actionConvergeMs;
  const actions = report.phases.filter((p) => p.kind === 'action');
  const times = actions.map((p) => p.convergence?.convergedAfterMs ?? Infinity);
  const sorted = [...times].sort((a, b) => a - b);
  const p95 = sorted.length ? sorted[Math.max(1, Math.ceil(0.95 * sorted.length)) - 1] : Infinity;
  results.push({
    name: `after a remote play/pause/seek/rate change: within ${TARGETS.inSyncMs} ms within ${actionConvergeMs} ms (p95 over ${actions.length} actions)`,
    pass: actions.length > 0 && p95 <= actionConvergeMs,
    detail: actions.map((p, i) => `${p.name} ${fmt(times[i])}`).join(', ') + ` → p95 ${fmt(p95)} ms`,
  });
  // The same, per kind of action (the first word of the phase name: play, seek, pause, resume, rate).
  const byKind = new Map<string, number[]>();
  actions.forEach((p, i) => {
    const kind = p.action?.kind ?? p.name.split(' ')[0];
    byKind.set(kind, [...(byKind.get(kind) ?? []), times[i]]);
  });
  for (const [kind, kindTimes] of byKind) {
    const worst = Math.max(...kindTimes);
    results.push({
      name: `in step after ${kind}: every client within ${TARGETS.inSyncMs} ms of the others within ${actionConvergeMs} ms`,
      pass: worst <= actionConvergeMs,
      detail: `${kindTimes.map(fmt).join(', ')} ms`,
    });
  }

  const late = report.phases.find((p) => p.kind === 'late-join');
  const lateMs = late?.convergence?.convergedAfterMs ?? null;
  results.push({
    name: `late joiner: within ${TARGETS.inSyncMs} ms within ${TARGETS.lateJoinConvergeMs} ms of its first frame`,
    pass: lateMs !== null && lateMs <= TARGETS.lateJoinConvergeMs,
    detail: late ? `${fmt(lateMs)} ms after its first frame (t=${late.convergence?.fromSec} s)` : 'no late-join phase',
  });

  for (const [flag, label] of [
    ['delayed', 'delayed client'],
    ['skewed', 'skewed-clock client'],
    ['throttled', 'CPU-throttled client'],
  ] as const) {
    for (const client of steady.clients.filter((c) => c[flag])) {
      const d = steady.steadyPerClient[client.id];
      results.push({
        name: `${label} ${client.id} (${client.conditions.join(', ')}): steady p95 <= ${TARGETS.steadyP95Ms} ms, max <= ${TARGETS.steadyMaxMs} ms`,
        pass: d !== null && d.p95 <= TARGETS.steadyP95Ms && d.max <= TARGETS.steadyMaxMs,
        detail: d ? `p95 ${fmt(d.p95)} ms, max ${fmt(d.max)} ms` : 'no steady-play samples',
      });
    }
  }

  const over: string[] = [];
  for (const p of report.phases.filter((ph) => ph.kind !== 'steady')) {
    for (const [id, c] of Object.entries(p.clients)) {
      if (c.engineSeeks > TARGETS.maxSeeksPerAction) over.push(`${p.name}/${id}: ${c.engineSeeks}`);
    }
  }
  results.push({
    name: `at most ${TARGETS.maxSeeksPerAction} hard seek per remote action per client`,
    pass: over.length === 0,
    detail: over.length ? over.join(', ') : 'ok',
  });
  const steadySeeks: string[] = [];
  for (const p of report.phases.filter((ph) => ph.kind === 'steady')) {
    for (const [id, c] of Object.entries(p.clients)) if (c.engineSeeks > 0) steadySeeks.push(`${p.name}/${id}: ${c.engineSeeks}`);
  }
  results.push({
    name: 'no hard seek during steady play',
    pass: steadySeeks.length === 0,
    detail: steadySeeks.length ? steadySeeks.join(', ') : 'ok',
  });
  return results;
}
