/**
 * The "latest figures" tables of docs/benchmarks.md, from a `sync-latest.json` (`npm run bench:sync -- --markdown`).
 */
import type { PhaseFigures, TargetResult } from './report';

/** The parts of `sync-latest.json` the tables use. */
export interface ResultsFile {
  meta: {
    date: string;
    clients: number;
    cpus: number;
    chromium: string;
    commit: string | null;
    dirty: boolean | null;
    loadAverage: { start: number[]; end: number[] };
    roles: Record<string, string[]>;
  };
  phases: PhaseFigures[];
  targets: TargetResult[];
}

const ms = (value: number | null | undefined) => (value === null || value === undefined || !Number.isFinite(value) ? '—' : `${Math.round(value)}`);

/** Markdown: one line on the run, a table per phase, a table of the targets. */
export function figuresMarkdown(results: ResultsFile): string {
  const { meta } = results;
  const ids = Object.keys(meta.roles);
  const lines = [
    `Run of ${meta.date.slice(0, 16).replace('T', ' ')} UTC: ${meta.clients} clients + a late joiner, ${meta.cpus} cores, ` +
      `load average ${meta.loadAverage.start.join(' ')} at the start and ${meta.loadAverage.end.join(' ')} at the end, ` +
      `commit ${(meta.commit ?? 'unknown').slice(0, 7)}${meta.dirty ? ' plus uncommitted changes' : ''}, Chromium ${meta.chromium}.`,
    '',
    `| phase (who) | inter-client drift median / p95 / max (ms) | in sync after (ms) | hard seeks ${ids.join('/')} | rate changes ${ids.join('/')} |`,
    '| --- | --- | --- | --- | --- |',
  ];
  for (const p of results.phases) {
    const drift = p.drift ? `${ms(p.drift.median)} / ${ms(p.drift.p95)} / ${ms(p.drift.max)}` : '—';
    const converged = p.convergence ? (p.convergence.convergedAfterMs === null ? 'never' : ms(p.convergence.convergedAfterMs)) : '';
    const seeks = ids.map((id) => p.clients[id]?.engineSeeks ?? 0).join('/');
    const rates = ids.map((id) => p.clients[id]?.engineRateChanges ?? 0).join('/');
    lines.push(`| ${p.name}${p.action ? ` (${p.action.clientId})` : ''} | ${drift} | ${converged} | ${seeks} | ${rates} |`);
  }
  lines.push('', '| target | result | measured |', '| --- | --- | --- |');
  for (const t of results.targets) lines.push(`| ${t.name} | ${t.pass ? 'pass' : '**fail**'} | ${t.detail} |`);
  return lines.join('\n') + '\n';
}
