/**
 * A movie's subtitles (`base.subtitles`, docs/contract.md §7.1: name → `{url, type}`) as text
 * tracks of the <video>, so the captions menu (media-chrome) and the `c` key pick among them and the
 * source's own embedded tracks alike. Downloaded only for a movie that has subtitles.
 *
 * - SRT and WebVTT are parsed by media-captions (Vidstack's parser) into the browser's own VTTCues,
 *   so SRT needs no server-side conversion and the browser renders them natively.
 * - ASS/SSA cannot be drawn by the browser: the track is an empty placeholder in the menu, and while
 *   it is the showing one, JASSUB (libass compiled to WebAssembly, components/player/ass.ts) renders
 *   it faithfully on a canvas over the video.
 */
import { parseText, type CaptionsFileFormat } from 'media-captions';

/** How a subtitle file is read: natively as cues (srt, vtt) or by libass (ass, ssa). */
export type SubtitleFormat = 'srt' | 'vtt' | 'ass' | 'ssa';

/**
 * The format of a subtitle from its declared `type` (case-insensitive; "" or unknown = guess), else
 * the URL path's extension, else WebVTT.
 */
export function subtitleFormat(type: string, url: string): SubtitleFormat {
  const declared = type.trim().toLowerCase();
  if (declared === 'srt' || declared === 'vtt' || declared === 'ass' || declared === 'ssa') return declared;
  if (declared === 'webvtt') return 'vtt';
  const path = url.split(/[?#]/)[0].toLowerCase();
  const extension = path.slice(path.lastIndexOf('.') + 1);
  if (extension === 'srt' || extension === 'ass' || extension === 'ssa') return extension;
  return 'vtt';
}

/** One cue: start and end in seconds of media time, and its text (WebVTT cue text, tags kept). */
export interface SubtitleCue {
  startTime: number;
  endTime: number;
  text: string;
}

/**
 * Parses SRT or WebVTT text into cues (media-captions; lenient: a bad block is skipped, the rest
 * kept). Throws nothing; an empty or unreadable file gives `[]`.
 */
export async function parseSubtitleCues(text: string, format: 'srt' | 'vtt'): Promise<SubtitleCue[]> {
  // media-captions wants the WebVTT header for vtt; SRT files have none.
  const { cues } = await parseText(text, { type: format as CaptionsFileFormat, strict: false });
  return cues.map((cue) => ({ startTime: cue.startTime, endTime: cue.endTime, text: cue.text }));
}

/** One subtitle of the movie, its URL already absolute (server-relative ones prefixed). */
export interface MovieSubtitle {
  name: string;
  url: string;
  type: string;
}

/** What `attachSubtitles` reports: each subtitle that could not be loaded, with the reason. */
export interface SubtitleProblem {
  name: string;
  detail: string;
}

/** A running renderer of one shown ASS subtitle: stop it, or move its cues by an offset (s). */
export interface AssRenderer {
  stop: () => void;
  setOffset: (offsetSec: number) => void;
}

/** The subtitles attached to a <video>: detach them, or move every cue by an offset. */
export interface AttachedSubtitles {
  /** Hides the tracks and stops the ASS renderer. */
  stop: () => void;
  /**
   * Shows every cue `offsetSec` seconds later (earlier when negative) than its file says, as the
   * reference client's "subtitle offset" does; 0 puts them back. Applies to cues still loading too.
   */
  setOffset: (offsetSec: number) => void;
}

/** Where a cue starts and ends in its file, before any offset. */
const fileTimes = new WeakMap<VTTCue, { start: number; end: number }>();

/** Moves `cue` to its file times plus `offsetSec` (never before 0). */
export function placeCue(cue: VTTCue, offsetSec: number): void {
  let times = fileTimes.get(cue);
  if (!times) {
    times = { start: cue.startTime, end: cue.endTime };
    fileTimes.set(cue, times);
  }
  cue.startTime = Math.max(0, times.start + offsetSec);
  cue.endTime = Math.max(cue.startTime, times.end + offsetSec);
}

/**
 * Adds one text track per subtitle to `video` (kind `subtitles`, labelled with the subtitle's name),
 * filled with its cues; an ASS/SSA one is handed to `onAss` when the viewer shows it and released
 * when they hide it. With exactly one subtitle it is shown at once (as the reference client does).
 * Returns the tracks' handle (see AttachedSubtitles); `stop` hides the tracks (tracks added by script
 * cannot be removed; the player gets a new <video> for each movie) and stops the ASS renderer.
 */
export function attachSubtitles(
  video: HTMLVideoElement,
  subtitles: MovieSubtitle[],
  onAss: (subtitle: MovieSubtitle, offsetSec: number) => AssRenderer,
  onProblem: (problem: SubtitleProblem) => void,
): AttachedSubtitles {
  let cancelled = false;
  let offset = 0;
  const assTracks = new Map<TextTrack, MovieSubtitle>();
  let ass: AssRenderer | null = null;
  let assShown: TextTrack | null = null;

  const tracks = subtitles.map((subtitle) => {
    const track = video.addTextTrack('subtitles', subtitle.name);
    track.mode = 'disabled';
    const format = subtitleFormat(subtitle.type, subtitle.url);
    if (format === 'ass' || format === 'ssa') {
      assTracks.set(track, subtitle);
    } else {
      fetch(subtitle.url)
        .then((response) => {
          if (!response.ok) throw new Error(`HTTP ${response.status}`);
          return response.text();
        })
        .then((text) => parseSubtitleCues(text, format))
        .then((cues) => {
          if (cancelled) return;
          for (const { startTime, endTime, text } of cues) {
            const cue = new VTTCue(startTime, endTime, text);
            placeCue(cue, offset);
            track.addCue(cue);
          }
        })
        .catch((error: unknown) => {
          if (!cancelled) onProblem({ name: subtitle.name, detail: error instanceof Error ? error.message : String(error) });
        });
    }
    return track;
  });

  /** Starts or stops libass as an ASS track becomes the shown one or stops being it. */
  const onChange = () => {
    const shown = tracks.find((track) => track.mode === 'showing' && assTracks.has(track)) ?? null;
    if (shown === assShown) return;
    ass?.stop();
    ass = null;
    assShown = shown;
    if (shown) ass = onAss(assTracks.get(shown)!, offset);
  };
  video.textTracks.addEventListener('change', onChange);
  if (tracks.length === 1) tracks[0].mode = 'showing';
  onChange();

  return {
    stop: () => {
      cancelled = true;
      video.textTracks.removeEventListener('change', onChange);
      ass?.stop();
      for (const track of tracks) track.mode = 'disabled';
    },
    setOffset: (offsetSec) => {
      offset = offsetSec;
      for (const track of tracks) for (const cue of Array.from(track.cues ?? [])) placeCue(cue as VTTCue, offset);
      ass?.setOffset(offset);
    },
  };
}
