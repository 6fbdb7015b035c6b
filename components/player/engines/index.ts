/**
 * The adapter for a source's kind (./engine.ts): hls.js for HLS, mpegts.js for FLV and MPEG-TS,
 * dash.js for DASH, the element itself for the rest.
 */
import { sourceKind, type SourceKind } from '@/lib/contract/source-kind';
import { attachDash, importDash } from './dash';
import { attachHls, importHlsLight } from './hls';
import { attachMpegts, importMpegts } from './mpegts';
import { attachNative } from './native';
import type { AttachEngine } from './engine';

export type { EngineAdapter, EngineHooks, EngineSource, TrackEngine } from './engine';
export { seeksAnywhere } from './native';

const ADAPTERS: Record<SourceKind, AttachEngine> = {
  hls: attachHls,
  flv: attachMpegts,
  mpegts: attachMpegts,
  dash: attachDash,
  native: attachNative,
};

/** Starts playing `source` with the adapter of its kind. */
export const attachEngine: AttachEngine = (source, hooks) => ADAPTERS[source.kind](source, hooks);

/**
 * Starts downloading the library a source of `kind` needs, before the player mounts (the hall calls
 * it as soon as the current movie is known, bench/first-frame.ts). The browser fetches a chunk once;
 * a failed download is reported by the adapter when the player attaches it.
 */
export function preloadLibrary(kind: SourceKind): void {
  const ignore = () => undefined;
  if (kind === 'hls') importHlsLight().catch(ignore);
  else if (kind === 'flv' || kind === 'mpegts') importMpegts().catch(ignore);
  else if (kind === 'dash') importDash().catch(ignore);
}

/**
 * Starts downloading the engine a source needs (hls.js light, mpegts.js, dash.js) before the player
 * mounts: the hall calls it as soon as the current movie is known, so the engine's code comes down
 * while the hall renders instead of after (bench/first-frame.ts). The browser fetches a chunk once,
 * so calling it again costs nothing; a failed download is reported by the player when it mounts.
 */
export function preloadEngine(url: string, type = ''): void {
  preloadLibrary(sourceKind(url, type));
}
