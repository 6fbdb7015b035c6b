/**
 * @jest-environment node
 *
 * Subtitle conversion: the format of a movie's subtitle, and SRT/WebVTT text into the cues the
 * browser shows natively (media-captions' parser, for real).
 */
import { parseSubtitleCues, subtitleFormat } from './subtitles';

describe('subtitleFormat', () => {
  it('follows the declared type, in any case', () => {
    expect(subtitleFormat('SRT', 'https://x.test/a.vtt')).toBe('srt');
    expect(subtitleFormat('ass', 'https://x.test/a')).toBe('ass');
    expect(subtitleFormat('webvtt', 'https://x.test/a')).toBe('vtt');
  });

  it('guesses from the URL path otherwise, ignoring the query, and falls back to WebVTT', () => {
    expect(subtitleFormat('', 'https://x.test/sub/a.srt?token=1')).toBe('srt');
    expect(subtitleFormat('', 'https://x.test/a.SSA')).toBe('ssa');
    expect(subtitleFormat('', 'https://x.test/a.ass#t=1')).toBe('ass');
    expect(subtitleFormat('', 'https://x.test/subtitles')).toBe('vtt');
  });
});

describe('parseSubtitleCues', () => {
  it('converts SRT (comma milliseconds, numbered blocks, CRLF, italics) into timed cues', async () => {
    const srt = '1\r\n00:00:01,500 --> 00:00:03,250\r\nHello <i>there</i>\r\n\r\n2\r\n00:01:02,000 --> 00:01:04,000\r\nTwo\r\nlines\r\n';
    const cues = await parseSubtitleCues(srt, 'srt');
    expect(cues).toEqual([
      { startTime: 1.5, endTime: 3.25, text: 'Hello <i>there</i>' },
      { startTime: 62, endTime: 64, text: 'Two\nlines' },
    ]);
  });

  it('reads WebVTT, skipping a malformed block and keeping the rest', async () => {
    const vtt = 'WEBVTT\n\n00:00.000 --> 00:02.000\nfirst\n\nnot a timing line\nbroken\n\n00:03.000 --> 00:04.500\nlast\n';
    const cues = await parseSubtitleCues(vtt, 'vtt');
    expect(cues.map((cue) => [cue.startTime, cue.endTime, cue.text])).toEqual([
      [0, 2, 'first'],
      [3, 4.5, 'last'],
    ]);
  });

  it('gives no cues for an empty or unreadable file', async () => {
    expect(await parseSubtitleCues('', 'srt')).toEqual([]);
    expect(await parseSubtitleCues('<html>404</html>', 'vtt')).toEqual([]);
  });
});
