/**
 * The benchmark's plot as a self-contained SVG (no dependencies): per client, its position minus the
 * room's expected position over time; below, the largest inter-client drift with the 33 ms and
 * 100 ms target lines; dashed verticals at the phase boundaries. Values beyond the axis are drawn on
 * its edge (the axis says where it clips).
 */

export interface PlotInput {
  title: string;
  /** Seconds from t0, one per grid instant. */
  tSec: number[];
  /** Per client (in legend order): label and drift against the room, ms, aligned with `tSec`. */
  clients: { id: string; label: string; values: (number | null)[] }[];
  /** Largest inter-client drift, ms, aligned with `tSec`. */
  spreadMs: (number | null)[];
  phases: { name: string; startSec: number }[];
  /** Top panel clips at ±this, ms. Default 250. */
  roomRangeMs?: number;
  /** Bottom panel clips at this, ms. Default 250. */
  spreadRangeMs?: number;
}

const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#17becf', '#8c564b', '#e377c2', '#7f7f7f'];

function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Polyline point lists for `values`, split where a value is missing. */
function segments(xs: number[], values: (number | null)[], y: (v: number) => number): string[] {
  const out: string[] = [];
  let current: string[] = [];
  values.forEach((v, i) => {
    if (v === null || !Number.isFinite(v)) {
      if (current.length) out.push(current.join(' '));
      current = [];
      return;
    }
    current.push(`${xs[i].toFixed(1)},${y(v).toFixed(1)}`);
  });
  if (current.length) out.push(current.join(' '));
  return out;
}

/** Renders the plot; returns the SVG document text. */
export function renderDriftSvg(input: PlotInput): string {
  const roomRange = input.roomRangeMs ?? 250;
  const spreadRange = input.spreadRangeMs ?? 250;
  const width = 1100;
  const left = 70;
  const right = 20;
  const plotW = width - left - right;
  const top1 = 70;
  const h1 = 260;
  const top2 = top1 + h1 + 50;
  const h2 = 170;
  const legendY = top2 + h2 + 40;
  const height = legendY + 30;
  const t0 = input.tSec.length ? input.tSec[0] : 0;
  const t1 = input.tSec.length ? input.tSec[input.tSec.length - 1] : 1;
  const span = Math.max(1e-9, t1 - t0);
  const x = (t: number) => left + ((t - t0) / span) * plotW;
  const xs = input.tSec.map(x);
  const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
  const y1 = (v: number) => top1 + h1 / 2 - (clamp(v, -roomRange, roomRange) / roomRange) * (h1 / 2);
  const y2 = (v: number) => top2 + h2 - (clamp(v, 0, spreadRange) / spreadRange) * h2;

  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="${left}" y="20" font-size="15" font-weight="bold">${esc(input.title)}</text>`,
  );

  // Axes and grid lines.
  for (const ms of [-roomRange, -100, -33, 0, 33, 100, roomRange]) {
    const yy = y1(ms);
    const frame = Math.abs(ms) === 33;
    parts.push(`<line x1="${left}" x2="${left + plotW}" y1="${yy}" y2="${yy}" stroke="${ms === 0 ? '#888' : frame ? '#f0c0c0' : '#e4e4e4'}"${frame ? ' stroke-dasharray="6 3"' : ''}/>`);
    // ±33 ms (one frame) sits too close to 0 for a label on the left: it goes on the right edge.
    if (frame) parts.push(`<text x="${left + plotW - 4}" y="${yy + (ms > 0 ? -3 : 11)}" text-anchor="end" fill="#c66">${ms > 0 ? '+' : ''}${ms} (1 frame)</text>`);
    else parts.push(`<text x="${left - 6}" y="${yy + 4}" text-anchor="end">${ms}</text>`);
  }
  parts.push(`<text x="14" y="${top1 + h1 / 2}" transform="rotate(-90 14 ${top1 + h1 / 2})" text-anchor="middle">position − room (ms, clipped ±${roomRange})</text>`);
  for (const ms of [0, 33, 100, spreadRange]) {
    const yy = y2(ms);
    const target = ms === 33 || ms === 100;
    parts.push(`<line x1="${left}" x2="${left + plotW}" y1="${yy}" y2="${yy}" stroke="${target ? '#f0a0a0' : '#e4e4e4'}"${target ? ' stroke-dasharray="6 3"' : ''}/>`);
    parts.push(`<text x="${left - 6}" y="${yy + 4}" text-anchor="end">${ms}</text>`);
  }
  parts.push(`<text x="14" y="${top2 + h2 / 2}" transform="rotate(-90 14 ${top2 + h2 / 2})" text-anchor="middle">max inter-client (ms)</text>`);
  for (let s = Math.ceil(t0 / 5) * 5; s <= t1; s += 5) {
    parts.push(`<text x="${x(s)}" y="${top2 + h2 + 16}" text-anchor="middle">${s}</text>`);
  }
  parts.push(`<text x="${left + plotW / 2}" y="${top2 + h2 + 30}" text-anchor="middle">time since t0 (s)</text>`);

  // Phase boundaries, labels staggered on two rows so that short phases stay readable.
  input.phases.forEach((phase, i) => {
    const xx = x(phase.startSec);
    parts.push(`<line x1="${xx}" x2="${xx}" y1="${top1 - 4}" y2="${top2 + h2}" stroke="#999" stroke-dasharray="3 3"/>`);
    parts.push(`<text x="${xx + 3}" y="${top1 - 20 + (i % 2) * 12}" fill="#444">${esc(phase.name)}</text>`);
  });
  parts.push(`<rect x="${left}" y="${top1}" width="${plotW}" height="${h1}" fill="none" stroke="#888"/>`);
  parts.push(`<rect x="${left}" y="${top2}" width="${plotW}" height="${h2}" fill="none" stroke="#888"/>`);

  let lx = left;
  input.clients.forEach((client, i) => {
    const color = COLORS[i % COLORS.length];
    for (const points of segments(xs, client.values, y1)) {
      parts.push(`<polyline fill="none" stroke="${color}" stroke-width="1.3" points="${points}"/>`);
    }
    parts.push(`<line x1="${lx}" x2="${lx + 18}" y1="${legendY}" y2="${legendY}" stroke="${color}" stroke-width="3"/>`);
    parts.push(`<text x="${lx + 24}" y="${legendY + 4}">${esc(client.label)}</text>`);
    // About 6 px per character at 11 px sans-serif.
    lx += 24 + client.label.length * 6.2 + 24;
  });
  parts.push(`<line x1="${lx}" x2="${lx + 18}" y1="${legendY}" y2="${legendY}" stroke="#333" stroke-width="3"/>`);
  parts.push(`<text x="${lx + 24}" y="${legendY + 4}">max inter-client drift (lower panel)</text>`);
  for (const points of segments(xs, input.spreadMs, y2)) {
    parts.push(`<polyline fill="none" stroke="#333" stroke-width="1.3" points="${points}"/>`);
  }
  parts.push('</svg>');
  return parts.join('\n') + '\n';
}
