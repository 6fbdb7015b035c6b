/**
 * ASS/SSA subtitles drawn by JASSUB (libass compiled to WebAssembly, rendered in a worker onto an
 * OffscreenCanvas): every libass feature, embedded and system fonts, in time with the <video>.
 * Downloaded only when a viewer shows an ASS track; the worker and the WebAssembly files are
 * emitted by the bundler from jassub's own `new URL(…, import.meta.url)` references.
 */
import JASSUB from 'jassub';

/**
 * Renders the ASS file at `url` over `video`, following the video's time, on a new canvas placed
 * right after the video in the media layer (`slot="media"` of media-chrome's controller, so it stays
 * over the picture in fullscreen too; a canvas can be handed to a worker only once, hence one per
 * showing). Resolves to the stop function, which also removes the canvas; rejects when the file
 * cannot be fetched or the browser lacks what JASSUB needs (WebAssembly, workers, OffscreenCanvas).
 */
export async function renderAss(video: HTMLVideoElement, url: string): Promise<() => void> {
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
    const renderer = new JASSUB({ video, canvas, subContent });
    await renderer.ready;
    return () => {
      void renderer.destroy();
      canvas.remove();
    };
  } catch (error) {
    canvas.remove();
    throw error;
  }
}
