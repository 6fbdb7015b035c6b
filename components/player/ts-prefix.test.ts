import { stripTsPrefix } from './ts-prefix';

/** `packets` MPEG-TS packets (sync byte, then filler) after `prefix`. */
function segment(prefix: number[], packets: number): ArrayBuffer {
  const body = new Uint8Array(packets * 188).fill(0x11);
  for (let packet = 0; packet < packets; packet += 1) body[packet * 188] = 0x47;
  return Uint8Array.from([...prefix, ...body]).buffer;
}

const PNG_HEADER = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52];

describe('stripTsPrefix', () => {
  it('drops a PNG header in front of the first TS packet', () => {
    const stripped = new Uint8Array(stripTsPrefix(segment(PNG_HEADER, 5)));
    expect(stripped.length).toBe(5 * 188);
    expect(stripped[0]).toBe(0x47);
  });

  it('leaves a plain TS segment, fMP4 and short data as they are', () => {
    const plain = segment([], 5);
    expect(stripTsPrefix(plain)).toBe(plain);
    const fmp4 = Uint8Array.from([0, 0, 0, 24, 0x66, 0x74, 0x79, 0x70, ...new Array(600).fill(0x47 - 1)]).buffer;
    expect(stripTsPrefix(fmp4)).toBe(fmp4);
    const short = segment(PNG_HEADER, 1);
    expect(stripTsPrefix(short)).toBe(short);
  });

  it('needs three packets in a row within the first 512 bytes', () => {
    const lone = Uint8Array.from([...PNG_HEADER, 0x47, ...new Array(600).fill(0)]).buffer;
    expect(stripTsPrefix(lone)).toBe(lone);
    const far = segment(new Array(600).fill(0), 4);
    expect(stripTsPrefix(far)).toBe(far);
  });
});
