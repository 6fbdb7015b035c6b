/**
 * A movie's subtitles on the player's element (docs/player.md "Subtitles"): text tracks through
 * ./subtitles.ts, ASS/SSA drawn by libass (./ass.ts), both downloaded only for a movie that has
 * subtitles, and shown `offsetSec` later than their files say.
 */
import { useEffect, useRef, type RefObject } from 'react';
import type { AssRenderer, AttachedSubtitles, MovieSubtitle, SubtitleProblem } from '@/components/player/subtitles';

/** An ASS renderer for `subtitle` over `video` that loads libass on demand; a failure is told through `onProblem`. */
function lazyAssRenderer(video: HTMLVideoElement, subtitle: MovieSubtitle, offsetSec: number, onProblem: (problem: SubtitleProblem) => void): AssRenderer {
  let renderer: AssRenderer | null = null;
  let released = false;
  let offset = offsetSec;
  import('@/components/player/ass')
    .then(({ renderAss }) => renderAss(video, subtitle.url, offset))
    .then((started) => {
      if (released) started.stop();
      else renderer = started;
    })
    .catch((error: unknown) => onProblem({ name: subtitle.name, detail: error instanceof Error ? error.message : String(error) }));
  return {
    stop: () => {
      released = true;
      renderer?.stop();
    },
    setOffset: (next) => {
      offset = next;
      renderer?.setOffset(next);
    },
  };
}

/**
 * Attaches the subtitles of `subtitlesKey` (the movie's list as JSON, so an equal list attaches
 * nothing again) to `videoRef`'s element, `offsetSec` (s) late; `onProblem` hears of a file that
 * could not be loaded (and null when a new list starts).
 */
export function useMovieSubtitles(videoRef: RefObject<HTMLVideoElement | null>, subtitlesKey: string, offsetSec: number, onProblem: (problem: SubtitleProblem | null) => void): void {
  const attached = useRef<AttachedSubtitles | null>(null);
  const latest = useRef({ offsetSec, onProblem });
  useEffect(() => {
    latest.current = { offsetSec, onProblem };
  });
  useEffect(() => {
    const video = videoRef.current;
    const list = JSON.parse(subtitlesKey) as MovieSubtitle[];
    if (!video || list.length === 0) return;
    let cancelled = false;
    latest.current.onProblem(null);
    const told = (problem: SubtitleProblem) => latest.current.onProblem(problem);
    void import('@/components/player/subtitles').then(({ attachSubtitles }) => {
      if (cancelled) return;
      attached.current = attachSubtitles(video, list, (subtitle, offset) => lazyAssRenderer(video, subtitle, offset, told), told);
      attached.current.setOffset(latest.current.offsetSec);
    });
    return () => {
      cancelled = true;
      attached.current?.stop();
      attached.current = null;
    };
  }, [videoRef, subtitlesKey]);
  useEffect(() => attached.current?.setOffset(offsetSec), [offsetSec]);
}
