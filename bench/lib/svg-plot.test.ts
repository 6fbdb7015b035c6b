/** @jest-environment node */
import { renderDriftSvg } from './svg-plot';

const base = {
  title: 'run <1> & co',
  tSec: [0, 0.1, 0.2, 0.3, 0.4],
  spreadMs: [10, 20, null, 30, 40],
  phases: [
    { name: 'play', startSec: 0 },
    { name: 'seek', startSec: 0.2 },
  ],
};

function polylines(svg: string): string[] {
  return [...svg.matchAll(/<polyline[^>]*points="([^"]*)"/g)].map((m) => m[1]);
}

describe('renderDriftSvg', () => {
  it('draws one line per client and the spread, broken where a value is missing', () => {
    const svg = renderDriftSvg({ ...base, clients: [{ id: 'c1', label: 'c1', values: [0, 5, 10, 15, 20] }] });
    expect(svg.startsWith('<svg')).toBe(true);
    // c1 in one piece; the spread in two around its gap.
    expect(polylines(svg)).toHaveLength(3);
    expect(polylines(svg)[0].split(' ')).toHaveLength(5);
  });

  it('marks every phase boundary with its name and escapes text', () => {
    const svg = renderDriftSvg({ ...base, clients: [{ id: 'c1', label: 'c1 <late>', values: [0, 0, 0, 0, 0] }] });
    expect(svg).toContain('>play<');
    expect(svg).toContain('>seek<');
    expect(svg).toContain('run &lt;1&gt; &amp; co');
    expect(svg).toContain('c1 &lt;late&gt;');
    expect(svg).not.toContain('<late>');
  });

  it('clips values beyond the axis to its edge instead of leaving the panel', () => {
    const inside = renderDriftSvg({ ...base, clients: [{ id: 'c1', label: 'c1', values: [250, 250, 250, 250, 250] }] });
    const beyond = renderDriftSvg({ ...base, clients: [{ id: 'c1', label: 'c1', values: [9000, 9000, 9000, 9000, 9000] }] });
    expect(polylines(beyond)[0]).toBe(polylines(inside)[0]);
  });
});
