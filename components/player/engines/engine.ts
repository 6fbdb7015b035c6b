/**
 * The player's engines behind one interface (docs/player.md "Engines"): each adapter attaches one
 * library (or none) to the player's one <video>, plays a source on it, reports through the same
 * hooks why it cannot, and lets go of the element when stopped. The player picks the adapter by the
 * source's kind (lib/contract/source-kind.ts) and knows nothing of the libraries. Each library is
 * downloaded only when a movie needs it, after the room link's early start has brought it in
 * (lib/room/early-engine.ts: an import before would download its chunk a second time).
 */
import type Hls from 'hls.js';
import type { SourceProblem } from '@/components/player/source-problems';
import type { SourceKind } from '@/lib/contract/source-kind';

/** What an adapter plays. Positions in seconds. */
export interface EngineSource {
  /** The player's element; the adapter never replaces it. */
  video: HTMLVideoElement;
  /** Absolute URL of the source. */
  url: string;
  kind: SourceKind;
  /** Headers for the library's own requests (hls.js, mpegts.js; the element itself can send none). */
  headers: Record<string, string>;
  /** A live stream: no seeking, low latency (docs/live.md). */
  live: boolean;
  /** A broadcast pushed into the room (docs/live.md): off the air is not a failure. */
  broadcast: boolean;
  /** Where the room will be (s) once the source can play, read when loading starts; negative: the start. */
  startPosition: () => number;
}

/** The engine whose qualities and audio tracks the player's menus offer (components/player/tracks.ts). */
export type TrackEngine = { kind: 'hls'; hls: Hls; events: typeof Hls.Events } | { kind: 'dash'; player: unknown; streamInitialized: string };

/** How an adapter tells the player what happens. */
export interface EngineHooks {
  /**
   * The source cannot play: `detail` in the library's words, `mediaErrorCode` a MediaError code for a
   * decoding failure, `failedUrl` the part of it that would not load (a segment of a playlist that
   * loads). The player finds the reason (unreachable, HTTP status, CORS, not media, codec) by probing
   * that URL, else the source's (components/player/source-problems.ts), and says it in words.
   */
  fail(detail: string, mediaErrorCode?: number, failedUrl?: string): void;
  /** A problem the adapter knows by itself (a format this browser lacks, a host that cannot seek, a broadcast's codec). */
  report(problem: SourceProblem): void;
  /** A broadcast is off the air (nobody pushes yet, or the push ended): the player says so and tries again. */
  offAir(): void;
  /** The engine whose qualities and tracks the menus offer (null: none, or no more). */
  tracks(engine: TrackEngine | null): void;
}

/** A running adapter. */
export interface EngineAdapter {
  /** Stops the library (also one still downloading) and lets go of the element's events. */
  stop(): void;
}

/** Starts playing `source` on its element; returns at once, the library loading meanwhile. */
export type AttachEngine = (source: EngineSource, hooks: EngineHooks) => EngineAdapter;

/**
 * Runs `start` once `load` resolves unless stopped before; `stop()` also stops what `start` returned.
 * A failed load, or a library that throws while starting, is told as the engine's own words.
 */
export function loadThen<T>(load: Promise<T>, hooks: EngineHooks, start: (library: T) => EngineAdapter | void): EngineAdapter {
  let stopped = false;
  let running: EngineAdapter | void;
  load
    .then((library) => {
      if (!stopped) running = start(library);
    })
    .catch((error: unknown) => {
      if (!stopped) hooks.report({ kind: 'unknown', detail: String(error) });
    });
  return {
    stop() {
      stopped = true;
      running?.stop();
    },
  };
}
