/**
 * A DASH manifest (MPD, ISO/IEC 23009-1, on-demand profile) from bilibili's play-URL answer
 * (docs/vendors.md "bilibili"), as SyncTV's Go server builds it: one period, one adaptation set of
 * video and one of audio, each stream a representation with its one file (`BaseURL`) and its
 * `SegmentBase` (the byte ranges of its init segment and of its index), so that a DASH player reads
 * each quality by HTTP Range. HEVC streams go into a manifest of their own (the movie's second
 * source), as not every browser decodes them; H.264 and AV1 into the main one.
 */
import type { BilibiliDash, BilibiliDashStream } from './bilibili';

/** Which video streams a manifest holds. */
export type BilibiliCodecs = 'main' | 'hevc';

/** Whether a stream's codec is HEVC (`hev1…`, `hvc1…`). */
export function isHevc(stream: BilibiliDashStream): boolean {
  return /^(hev1|hvc1)/i.test(stream.codecs);
}

/**
 * The streams of an answer in the order the proxy numbers them (`?id=<n>`): the video streams,
 * then the audio ones.
 */
export function numberedStreams(dash: BilibiliDash): BilibiliDashStream[] {
  return [...dash.video, ...dash.audio];
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** `seconds` as an xs:duration (`PT12.34S`). */
function duration(seconds: number): string {
  return `PT${Math.max(0, seconds).toFixed(2)}S`;
}

function representation(stream: BilibiliDashStream, index: number, url: string, kind: 'video' | 'audio'): string {
  const size = kind === 'video' ? ` width="${stream.width}" height="${stream.height}"${stream.frameRate ? ` frameRate="${escapeXml(stream.frameRate)}"` : ''}${stream.sar ? ` sar="${escapeXml(stream.sar)}"` : ''}` : ' audioSamplingRate="44100"';
  const segment = stream.segmentBase.indexRange
    ? `<SegmentBase indexRange="${escapeXml(stream.segmentBase.indexRange)}"><Initialization range="${escapeXml(stream.segmentBase.initialization)}"/></SegmentBase>`
    : '';
  return `<Representation id="${kind[0]}${index}" bandwidth="${stream.bandwidth}" codecs="${escapeXml(stream.codecs)}"${size}><BaseURL>${escapeXml(url)}</BaseURL>${segment}</Representation>`;
}

/**
 * The manifest of `codecs` (null when the answer has no such video stream), each stream's
 * `BaseURL` being `urlOf(n)`, n its place in numberedStreams.
 */
export function bilibiliMpd(dash: BilibiliDash, codecs: BilibiliCodecs, urlOf: (index: number) => string): string | null {
  const streams = numberedStreams(dash);
  const video = streams.map((stream, index) => ({ stream, index })).filter(({ stream }, index) => index < dash.video.length && isHevc(stream) === (codecs === 'hevc'));
  if (video.length === 0) return null;
  const audio = streams.map((stream, index) => ({ stream, index })).slice(dash.video.length);
  const set = (kind: 'video' | 'audio', items: typeof video) =>
    items.length === 0
      ? ''
      : `<AdaptationSet mimeType="${escapeXml(items[0].stream.mimeType || `${kind}/mp4`)}" segmentAlignment="true" startWithSAP="${items[0].stream.startWithSap || 1}">${items.map(({ stream, index }) => representation(stream, index, urlOf(index), kind)).join('')}</AdaptationSet>`;
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:isoff-on-demand:2011" type="static" mediaPresentationDuration="${duration(dash.durationSec)}" minBufferTime="${duration(dash.minBufferTimeSec)}">` +
    `<Period id="0" start="PT0S">${set('video', video)}${set('audio', audio)}</Period></MPD>\n`
  );
}

/** bilibili's subtitle lines as WebVTT (times in seconds, ms precision). */
export function subtitleVtt(lines: { from: number; to: number; content: string }[]): string {
  const time = (seconds: number) => {
    const ms = Math.round(Math.max(0, seconds) * 1000);
    const pad = (value: number, width = 2) => String(value).padStart(width, '0');
    return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
  };
  // A cue's text may not hold "-->" nor an empty line.
  const cues = lines.map((line) => `${time(line.from)} --> ${time(line.to)}\n${line.content.replace(/-->/g, '->').replace(/\n\s*\n/g, '\n').trim()}`);
  return `WEBVTT\n\n${cues.join('\n\n')}\n`;
}
