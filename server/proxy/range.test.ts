/**
 * Range requests answered for a source that ignores them (./range.ts): the plan for each kind of
 * `Range` header, and the bytes a slice lets through whatever the chunks.
 */
import { Readable } from 'node:stream';
import { byteSlice, planRange } from './range';

async function sliced(chunks: Buffer[], start: number, end: number): Promise<string> {
  const out: Buffer[] = [];
  for await (const chunk of Readable.from(chunks).pipe(byteSlice(start, end))) out.push(chunk as Buffer);
  return Buffer.concat(out).toString();
}

describe('planRange', () => {
  it('answers a single range with its bytes, an open one to the end', () => {
    expect(planRange('bytes=0-', 1000)).toEqual({ status: 206, start: 0, end: 999 });
    expect(planRange('bytes=200-299', 1000)).toEqual({ status: 206, start: 200, end: 299 });
    expect(planRange('bytes=-100', 1000)).toEqual({ status: 206, start: 900, end: 999 });
    expect(planRange('bytes=900-5000', 1000)).toEqual({ status: 206, start: 900, end: 999 });
  });

  it('answers no range, several ranges and an unreadable one with the whole file, one past the end with 416', () => {
    expect(planRange(undefined, 1000)).toEqual({ status: 200 });
    expect(planRange('bytes=0-1,5-6', 1000)).toEqual({ status: 200 });
    expect(planRange('lines=1-2', 1000)).toEqual({ status: 200 });
    expect(planRange('nonsense', 1000)).toEqual({ status: 200 });
    expect(planRange('bytes=2000-', 1000)).toEqual({ status: 416 });
  });
});

describe('byteSlice', () => {
  it('lets through exactly the range, across chunk boundaries, and ends there', async () => {
    const chunks = ['0123', '4567', '89ab', 'cdef'].map((text) => Buffer.from(text));
    expect(await sliced(chunks, 0, 15)).toBe('0123456789abcdef');
    expect(await sliced(chunks, 3, 9)).toBe('3456789');
    expect(await sliced(chunks, 8, 8)).toBe('8');
    expect(await sliced(chunks, 12, 15)).toBe('cdef');
  });
});
