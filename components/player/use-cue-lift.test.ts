/** Subtitles above the control bar while it shows, and legible on a phone (./use-cue-lift.ts). */
import { cueSizePx, liftedLine, MIN_CUE_PX, placeCues } from './use-cue-lift';

type Cue = { line: number | 'auto'; text: string };

/** A <video> whose text tracks are the given cue lists, each showing unless `hidden` says which. */
function videoWith(tracks: Cue[][], hidden: number[] = []): HTMLVideoElement {
  const list = tracks.map((cues, index) => ({ mode: hidden.includes(index) ? 'hidden' : 'showing', cues }));
  return { textTracks: list } as unknown as HTMLVideoElement;
}

describe('cue size', () => {
  it("is the browsers' 5 % of the picture, and never under 15 px (a phone's 220 px picture)", () => {
    expect(cueSizePx(720)).toBe(36);
    expect(cueSizePx(220)).toBe(MIN_CUE_PX);
  });
});

describe('cues above the control bar', () => {
  it('puts the last line of a cue above the bar, a two-line cue one line higher', () => {
    // A 48 px bar over 15 px text (19.5 px lines): three lines.
    expect(liftedLine(48, 15, 1)).toBe(-4);
    expect(liftedLine(48, 15, 2)).toBe(-5);
    // On a large screen the same bar is about one line.
    expect(liftedLine(48, 36, 1)).toBe(-3);
  });

  it('moves the cues the browser places while the bar shows, and only those back when it hides', () => {
    const placed: Cue = { line: 'auto', text: 'Hello' };
    const twoLines: Cue = { line: 'auto', text: 'Hello\nthere' };
    const authored: Cue = { line: 2, text: 'A sign at the top' };
    const off: Cue = { line: 'auto', text: 'in a track turned off' };
    const video = videoWith([[placed, twoLines, authored], [off]], [1]);
    const lifted = new WeakSet<object>();

    placeCues(video, 48, 15, lifted);
    expect([placed.line, twoLines.line, authored.line, off.line]).toEqual([-4, -5, 2, 'auto']);
    // The bar grew (a bigger screen's text is larger, a phone's bar is the same): moved again.
    placeCues(video, 96, 15, lifted);
    expect(placed.line).toBe(-6);

    placeCues(video, null, 15, lifted);
    expect([placed.line, twoLines.line, authored.line, off.line]).toEqual(['auto', 'auto', 2, 'auto']);
  });
});
