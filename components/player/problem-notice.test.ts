import { flvCodecName } from './problem-notice';

describe('flvCodecName', () => {
  it('names the FLV codec mpegts.js cannot play, in words a broadcaster knows', () => {
    expect(flvCodecName('Flv: Unsupported codec in video frame: 2')).toBe('Sorenson H.263');
    expect(flvCodecName('Flv: Unsupported codec in video frame: 12')).toBe('HEVC (H.265)');
    expect(flvCodecName('Flv: Unsupported audio codec idx: 11')).toBe('Speex');
    expect(flvCodecName('Flv: Unsupported audio codec: ac-3')).toBe('ac-3');
    expect(flvCodecName('Flv: Unsupported codec in video frame: vp09')).toBe('vp09');
    expect(flvCodecName('')).toBe('?');
  });
});
