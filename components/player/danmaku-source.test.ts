/**
 * Danmaku data: the viewer's stored settings, a movie's danmaku file (bilibili XML and JSON), and
 * the density limits of the overlay.
 */
import { parseDanmakuFile } from './danmaku-file';
import { danmakuSettingsOf, liveLimiter, thinComments } from './danmaku-source';

describe('danmakuSettingsOf', () => {
  it('starts on, at 80 % and normal density, and off when the system asks for reduced motion', () => {
    expect(danmakuSettingsOf(null, false)).toEqual({ enabled: true, opacity: 0.8, density: 'normal' });
    expect(danmakuSettingsOf(null, true).enabled).toBe(false);
  });

  it('keeps what the viewer chose, clamps the opacity, and replaces anything malformed', () => {
    expect(danmakuSettingsOf({ enabled: false, opacity: 0.5, density: 'low' }, false)).toEqual({ enabled: false, opacity: 0.5, density: 'low' });
    expect(danmakuSettingsOf({ enabled: true, opacity: 0.01, density: 'high' }, true)).toEqual({ enabled: true, opacity: 0.2, density: 'high' });
    expect(danmakuSettingsOf({ enabled: 'yes', opacity: 'x', density: 'lots' }, false)).toEqual({ enabled: true, opacity: 0.8, density: 'normal' });
  });
});

describe('parseDanmakuFile', () => {
  it('reads bilibili XML: time, mode and decimal colour, in time order, skipping broken entries', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?><i>
      <d p="12.5,1,25,16777215,0,0,0,0">later</d>
      <d p="3.25,5,25,16711680,0,0,0,0">top &amp; red</d>
      <d p="x,1,25,0">bad time</d>
      <d p="4,4,25,255">bottom blue</d>
      <d p="6,1,25,0"></d>
    </i>`;
    expect(parseDanmakuFile(xml)).toEqual([
      { time: 3.25, text: 'top & red', color: '#ff0000', mode: 'top' },
      { time: 4, text: 'bottom blue', color: '#0000ff', mode: 'bottom' },
      { time: 12.5, text: 'later', color: '#ffffff', mode: 'rtl' },
    ]);
  });

  it('reads a JSON array of {text, time, color, mode}', () => {
    const json = JSON.stringify([
      { text: 'b', time: 2, color: '#0f0', mode: 1 },
      { text: 'a', time: 1 },
      { text: '', time: 3 },
      { time: 4 },
      'junk',
    ]);
    expect(parseDanmakuFile(json)).toEqual([
      { time: 1, text: 'a', color: '#ffffff', mode: 'rtl' },
      { time: 2, text: 'b', color: '#0f0', mode: 'top' },
    ]);
  });

  it('gives no comments for anything else', () => {
    expect(parseDanmakuFile('')).toEqual([]);
    expect(parseDanmakuFile('[not json')).toEqual([]);
    expect(parseDanmakuFile('hello')).toEqual([]);
  });
});

describe('density', () => {
  it('keeps every 4th comment of a movie at low, every 2nd at normal, all at high', () => {
    const comments = Array.from({ length: 8 }, (_, i) => i);
    expect(thinComments(comments, 'low')).toEqual([0, 4]);
    expect(thinComments(comments, 'normal')).toEqual([0, 2, 4, 6]);
    expect(thinComments(comments, 'high')).toEqual(comments);
  });

  it('lets a burst of live comments through, then about the density per second', () => {
    const limiter = liveLimiter('normal');
    const burst = Array.from({ length: 10 }, () => limiter.take(1000)).filter(Boolean).length;
    expect(burst).toBe(6);
    // One second later, four more.
    expect(Array.from({ length: 10 }, () => limiter.take(2000)).filter(Boolean).length).toBe(4);
    const low = liveLimiter('low');
    expect([low.take(0), low.take(0), low.take(0), low.take(1000)]).toEqual([true, true, false, true]);
    const high = liveLimiter('high');
    expect(Array.from({ length: 100 }, () => high.take(0)).every(Boolean)).toBe(true);
  });
});
