/**
 * The player's source (docs/player.md "Engines"): one engine adapter per URL on the player's one
 * <video> (./engines), what went wrong in words, and a broadcast's time off the air.
 */
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import type { SourceProblem } from '@/components/player/source-problems';
import { sourceKind, type SourceKind } from '@/lib/contract/source-kind';
import { attachEngine, type TrackEngine } from './engines';

/** How often a player waiting for a broadcast tries again, ms. */
export const BROADCAST_RETRY_MS = 2000;

/** What the player plays; `headersKey` is the headers as JSON, so that equal headers do not reload the source. */
export interface SourceOptions {
  url: string;
  /** The movie's `base.type` ("" or absent: guess from the URL). */
  type?: string;
  headersKey: string;
  live: boolean;
  broadcast: boolean;
  /** Where the room will be (s) once the media can play; negative: the start. Read when an engine starts. */
  startPosition: () => number;
  /** Told of every problem (null once the source plays again). */
  onProblem?: (problem: SourceProblem | null) => void;
}

/** A broadcast not started yet (`waiting`) or ended (`ended`); null while on the air or for other movies. */
export type OffAir = 'waiting' | 'ended' | null;

/** What failed, for `explainProblem`. */
interface Failure {
  url: string;
  kind: SourceKind;
  headers: Record<string, string>;
  /** The engine's own words. */
  detail: string;
  /** A MediaError code for a decoding failure. */
  mediaErrorCode?: number;
  /** The part of the source that would not load (a segment), probed instead of `url`. */
  failedUrl?: string;
}

/**
 * Says why a source failed, in words: at once in the engine's words, then, once a probe of the URL
 * has answered (components/player/source-problems.ts, downloaded only when something failed), as
 * unreachable, an HTTP status, CORS, mixed content, not media or codec. `stale()` is true once the
 * source is no longer the player's.
 */
function explainProblem(failure: Failure, report: (problem: SourceProblem) => void, stale: () => boolean): void {
  const { kind, headers, detail, mediaErrorCode } = failure;
  const url = failure.failedUrl ?? failure.url;
  report({ kind: 'unknown', detail });
  void import('@/components/player/source-problems')
    .then(async ({ describeSourceProblem, diagnoseSource }) => {
      const diagnosis = await diagnoseSource(url, headers);
      if (!stale()) report(describeSourceProblem(diagnosis, { url, engine: kind, mediaErrorCode, detail, pageProtocol: window.location.protocol }));
    })
    .catch(() => undefined);
}

/** How a running source tells the player what happens; nothing is told once it is stopped. */
interface SourceEvents {
  report(problem: SourceProblem | null): void;
  /** The problem shown now (a host that cannot seek stays told when the pictures come). */
  problem(): SourceProblem | null;
  offAir(): void;
  onAir(): void;
  tracks(engine: TrackEngine | null): void;
}

/** Plays `options` on `video` with the adapter of its kind until the returned function stops it and empties the element. */
function playSource(video: HTMLVideoElement, options: Omit<SourceOptions, 'onProblem'>, events: SourceEvents): () => void {
  const { url, type, headersKey, live, broadcast, startPosition } = options;
  let stopped = false;
  const unlessStopped =
    <A extends unknown[]>(act: (...args: A) => void) =>
    (...args: A) => {
      if (!stopped) act(...args);
    };
  const headers = JSON.parse(headersKey) as Record<string, string>;
  const kind = sourceKind(url, type);
  const offAir = unlessStopped(events.offAir);
  const adapter = attachEngine(
    { video, url, kind, headers, live, broadcast, startPosition },
    {
      fail: unlessStopped((detail: string, mediaErrorCode?: number, failedUrl?: string) => explainProblem({ url, kind, headers, detail, mediaErrorCode, failedUrl }, events.report, () => stopped)),
      report: unlessStopped(events.report),
      offAir,
      tracks: unlessStopped(events.tracks),
    },
  );
  // Pictures again: whatever failed before works now (a host that came back; a host that cannot
  // seek is told after its metadata and stays told).
  const onData = () => events.report(events.problem()?.kind === 'noRange' ? events.problem() : null);
  const onAir = unlessStopped(events.onAir);
  video.addEventListener('loadeddata', onData);
  if (broadcast) {
    video.addEventListener('playing', onAir);
    // HLS: the playlist's end mark, once the last segment has played.
    video.addEventListener('ended', offAir);
  }
  return () => {
    stopped = true;
    adapter.stop();
    video.removeEventListener('loadeddata', onData);
    video.removeEventListener('playing', onAir);
    video.removeEventListener('ended', offAir);
    video.removeAttribute('src');
    video.load();
  };
}

/**
 * Plays the source on `videoRef`'s element, again whenever the URL, type, headers or liveness change
 * (the element stays; the sync engine brings it back to the room). A broadcast off the air is tried
 * again every BROADCAST_RETRY_MS; its problem (a codec) stays up across the tries until the picture
 * comes. Returns the problem, the broadcast's state, and the engine whose tracks the menus offer.
 */
export function useSource(videoRef: RefObject<HTMLVideoElement | null>, options: SourceOptions) {
  const { url, type, headersKey, live, broadcast } = options;
  const [problem, setProblem] = useState<SourceProblem | null>(null);
  const [offAir, setOffAir] = useState<OffAir>(null);
  const [attempt, setAttempt] = useState(0);
  const [engine, setEngine] = useState<TrackEngine | null>(null);
  // Read when an engine starts, without restarting it when the functions change.
  const latest = useRef(options);
  useEffect(() => {
    latest.current = options;
  });
  const problemRef = useRef<SourceProblem | null>(null);
  const report = useCallback((next: SourceProblem | null) => {
    problemRef.current = next;
    setProblem(next);
    latest.current.onProblem?.(next);
  }, []);
  /** This player has had the broadcast on the air: off the air from now on means it ended. */
  const aired = useRef(false);

  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    if (!broadcast) report(null);
    let retry: ReturnType<typeof setTimeout> | undefined;
    const stop = playSource(video, { url, type, headersKey, live, broadcast, startPosition: () => latest.current.startPosition() }, {
      report,
      problem: () => problemRef.current,
      offAir: () => {
        clearTimeout(retry);
        setOffAir((previous) => (previous === 'ended' || aired.current || video.readyState > 0 || video.currentTime > 0 ? 'ended' : 'waiting'));
        retry = setTimeout(() => setAttempt((count) => count + 1), BROADCAST_RETRY_MS);
      },
      onAir: () => {
        aired.current = true;
        setOffAir(null);
        report(null);
      },
      tracks: setEngine,
    });
    return () => {
      clearTimeout(retry);
      stop();
      setEngine(null);
    };
  }, [videoRef, url, type, headersKey, live, broadcast, attempt, report]);

  return { problem, offAir, engine };
}
