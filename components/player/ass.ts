/**
 * ASS/SSA subtitles drawn by JASSUB (libass compiled to WebAssembly, rendered in a worker onto an
 * OffscreenCanvas): every libass feature, embedded and system fonts, in time with the <video>.
 * Downloaded only when a viewer shows an ASS track; the worker and the WebAssembly files are
 * emitted by the bundler from jassub's own `new URL(…, import.meta.url)` references.
 */
import JASSUB from 'jassub';
import type { AssRenderer } from './subtitles';

/** When (ms after JASSUB is ready) the frame of a paused video gets its subtitle drawn (see `drawStill`). */
const STILL_REDRAW_MS = [0, 150, 600];

/**
 * Renders the ASS file at `url` over `video`, following the video's time, on a new canvas placed
 * right after the video in the media layer (`slot="media"` of media-chrome's controller, so it stays
 * over the picture in fullscreen too; a canvas can be handed to a worker only once, hence one per
 * showing), its cues `offsetSec` seconds later than the file says. Resolves to the renderer: its
 * `stop` also removes the canvas, its `setOffset` moves the cues again. Rejects when the file cannot
 * be fetched or the browser lacks what JASSUB needs (WebAssembly, workers, OffscreenCanvas).
 */
export async function renderAss(video: HTMLVideoElement, url: string, offsetSec = 0): Promise<AssRenderer> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const subContent = await response.text();
  const canvas = document.createElement('canvas');
  canvas.slot = 'media';
  canvas.dataset.testid = 'ass-canvas';
  canvas.style.position = 'absolute';
  canvas.style.pointerEvents = 'none';
  video.insertAdjacentElement('afterend', canvas);
  try {
    // JASSUB draws the cue of (video time + timeOffset): a subtitle shown `offsetSec` later is drawn at time − offset.
    const renderer = new JASSUB({ video, canvas, subContent, timeOffset: -offsetSec });
    await renderer.ready;
    // JASSUB draws when the video presents a frame (requestVideoFrameCallback); a paused or ended
    // video presents none, so a subtitle picked (or moved) then is drawn here, at the frame shown.
    // JASSUB's own first resize of the canvas, still in flight when `ready` resolves, clears it
    // again: the still is drawn once more when that has settled.
    const drawStill = () => {
      if (!video.paused && !video.ended) return;
      void renderer.manualRender({ mediaTime: video.currentTime, width: video.videoWidth, height: video.videoHeight, expectedDisplayTime: performance.now() }, true);
    };
    const timers = STILL_REDRAW_MS.map((delayMs) => setTimeout(drawStill, delayMs));
    return {
      stop: () => {
        timers.forEach(clearTimeout);
        void renderer.destroy();
        canvas.remove();
      },
      setOffset: (next) => {
        renderer.timeOffset = -next;
        drawStill();
      },
    };
  } catch (error) {
    canvas.remove();
    throw error;
  }
}
