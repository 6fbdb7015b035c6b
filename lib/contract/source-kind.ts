/**
 * Which engine plays a movie, from its `type` or its URL (docs/reference-client.md §5): the player
 * (components/player/player.tsx) and the room link's early start (lib/room/early-start-run.ts, whose
 * compiled inline script holds this module) decide with the same function, and so does the companion
 * server when it judges whether browsers play a film as it is (server/transcode/plan.ts).
 */

/** Which engine plays a source: hls.js, mpegts.js (FLV or MPEG-TS), dash.js, or the element itself. */
export type SourceKind = 'hls' | 'flv' | 'mpegts' | 'dash' | 'native';

export const TYPE_KINDS: Record<string, SourceKind> = {
  m3u8: 'hls',
  m3u: 'hls',
  hls: 'hls',
  flv: 'flv',
  mpegts: 'mpegts',
  ts: 'mpegts',
  m2ts: 'mpegts',
  m2t: 'mpegts',
  mts: 'mpegts',
  // The reference client's `mes` (sic) and `mse`: mpegts.js's MSE player, which reads FLV or MPEG-TS.
  mse: 'mpegts',
  mes: 'mpegts',
  mpd: 'dash',
  dash: 'dash',
};
export const EXTENSION_KINDS: [string, SourceKind][] = [
  ['.m3u8', 'hls'],
  ['.m3u', 'hls'],
  ['.flv', 'flv'],
  ['.ts', 'mpegts'],
  ['.m2ts', 'mpegts'],
  ['.m2t', 'mpegts'],
  ['.mts', 'mpegts'],
  ['.mpd', 'dash'],
];

/**
 * The engine for a movie: its `type` when set (m3u8, flv, mpegts/ts, mpd…; anything else plays
 * natively), else the URL path's extension, ignoring the query.
 */
export function sourceKind(url: string, type = ''): SourceKind {
  const kind = type.trim().toLowerCase();
  if (kind) return TYPE_KINDS[kind] ?? 'native';
  const path = url.split(/[?#]/)[0].toLowerCase();
  return EXTENSION_KINDS.find(([extension]) => path.endsWith(extension))?.[1] ?? 'native';
}

/** True when the movie is HLS: type m3u8/m3u, or a URL path ending in .m3u8/.m3u. */
export function isHlsSource(url: string, type = ''): boolean {
  return sourceKind(url, type) === 'hls';
}
