/**
 * Subtitles that stay readable (docs/player.md "Subtitles"): the browser draws a text track's cues
 * at the bottom of the picture, where the control bar covers them whenever it shows, and at 5 % of
 * the picture's height, which on a phone is a 10 px line. So, in every engine, once the controls
 * have loaded (it comes with them, components/player/player-controls.tsx; until then `::cue` is
 * 15 px):
 * - the cue text is at least MIN_CUE_PX high (`--cue-size` on the <video>, read by `::cue` in
 *   app/globals.css);
 * - while the control bar shows, each cue placed by the browser (`line` "auto") of a showing track
 *   moves up by as many lines as the bar is high, and goes back down when the bar hides. A cue
 *   the subtitle file placed itself is left where it is.
 */
import { useEffect } from 'react';

/** The smallest cue text (CSS px): legible on a phone held upright. */
export const MIN_CUE_PX = 15;
/** The cue text's share of the picture's height where that is more (the browsers' own 5 %). */
const CUE_HEIGHT_SHARE = 0.05;
/** A cue line's height against its text (the browsers' `line-height: normal` with the cue's padding). */
const LINE_PER_TEXT = 1.3;

/** The cue text size (CSS px) for a picture `pictureHeightPx` high. */
export function cueSizePx(pictureHeightPx: number): number {
  return Math.max(MIN_CUE_PX, Math.round(pictureHeightPx * CUE_HEIGHT_SHARE));
}

/**
 * The `line` (negative: counted from the bottom, -1 being the last line) that puts the last line of
 * a cue of `lineCount` lines just above a bar `barHeightPx` high, with cue text `cueSizePx` high.
 */
export function liftedLine(barHeightPx: number, cueSize: number, lineCount: number): number {
  const barLines = Math.ceil(barHeightPx / (cueSize * LINE_PER_TEXT));
  return -(barLines + Math.max(1, lineCount));
}

/** The cue shape this reads and writes (VTTCue's `line` and `text`; jsdom has no VTTCue). */
interface LineCue {
  line: number | 'auto';
  text: string;
}

/**
 * Moves the cues that the browser places (`line` "auto") of every showing track of `video` above a
 * bar `barHeightPx` high (`barHeightPx` null: back down). `lifted` remembers which cues this moved,
 * so that only those go back.
 */
export function placeCues(video: HTMLVideoElement, barHeightPx: number | null, cueSize: number, lifted: WeakSet<object>): void {
  for (const track of Array.from(video.textTracks ?? [])) {
    if (track.mode !== 'showing' || !track.cues) continue;
    for (const cue of Array.from(track.cues) as unknown as LineCue[]) {
      if (!('line' in cue)) continue;
      if (barHeightPx !== null && (cue.line === 'auto' || lifted.has(cue))) {
        const line = liftedLine(barHeightPx, cueSize, cue.text.split('\n').length);
        if (cue.line !== line) moveCue(cue, line);
        lifted.add(cue);
      } else if (barHeightPx === null && lifted.has(cue)) {
        moveCue(cue, 'auto');
        lifted.delete(cue);
      }
    }
  }
}

/**
 * Sets a cue's `line`. Chromium draws a showing cue again only when its line changes between a
 * positive and a negative value, so the line passes through 1 on the way.
 */
function moveCue(cue: LineCue, line: number | 'auto'): void {
  cue.line = 1;
  cue.line = line;
}

/** Whether media-chrome shows the controls of `controller` now: the viewer is active, or it is paused. */
function barShows(controller: HTMLElement): boolean {
  return !controller.hasAttribute('userinactive') || controller.hasAttribute('mediapaused');
}

/**
 * Keeps the cues of `video` legible and, while `hasBar` (the controls are loaded and not locked
 * away), above the control bar of `controller` (its `[data-testid="player-controls"]`), following
 * media-chrome's `userinactive` and `mediapaused`, the picture's size and the tracks turned on or
 * loaded.
 */
export function useCueLift(video: HTMLVideoElement | null, controller: HTMLElement | null, hasBar: boolean): void {
  useEffect(() => {
    if (!video || !controller) return;
    const lifted = new WeakSet<object>();
    let cueSize = 0;
    const update = () => {
      const size = cueSizePx(video.clientHeight);
      if (size !== cueSize) video.style.setProperty('--cue-size', `${size}px`);
      cueSize = size;
      const bar = hasBar && barShows(controller) ? controller.querySelector<HTMLElement>('[data-testid="player-controls"]') : null;
      placeCues(video, bar ? bar.getBoundingClientRect().height : null, cueSize, lifted);
    };
    update();
    const attributes = new MutationObserver(update);
    attributes.observe(controller, { attributes: true, attributeFilter: ['userinactive', 'mediapaused'] });
    // Every browser has it; a test's DOM (jsdom) may not.
    const resize = typeof ResizeObserver === 'function' ? new ResizeObserver(update) : null;
    resize?.observe(video);
    // A test's DOM may stand in a plain list for the TextTrackList.
    const tracks = typeof video.textTracks?.addEventListener === 'function' ? video.textTracks : null;
    tracks?.addEventListener('change', update);
    tracks?.addEventListener('addtrack', update);
    // A track's cues arrive after it was turned on (a file still loading), and an offset makes them anew.
    video.addEventListener('timeupdate', update);
    return () => {
      attributes.disconnect();
      resize?.disconnect();
      tracks?.removeEventListener('change', update);
      tracks?.removeEventListener('addtrack', update);
      video.removeEventListener('timeupdate', update);
      placeCues(video, null, cueSize, lifted);
    };
  }, [video, controller, hasBar]);
}

/** useCueLift as an element, for a lazy import with the controls (components/player/player-controls.tsx). */
export function CueLift({ video, controller, hasBar }: { video: HTMLVideoElement | null; controller: HTMLElement | null; hasBar: boolean }): null {
  useCueLift(video, controller, hasBar);
  return null;
}
