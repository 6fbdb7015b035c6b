/**
 * The element itself plays the source (MP4, WebM and anything the browser knows; Safari's own HLS).
 * A decoding or loading failure comes as the element's `error`. Whether the host can seek comes from
 * the element's seekable ranges once it has metadata: a host without HTTP Range leaves them at
 * [0, 0] in Chromium, and the player says so (no CORS needed, unlike a probe; docs/hosting.md).
 */
import type { AttachEngine } from './engine';

/**
 * True when the element can seek over the whole of its (finite) media: a host that honours HTTP
 * Range, or a file the browser already holds.
 */
export function seeksAnywhere(video: HTMLVideoElement): boolean {
  const { duration, seekable } = video;
  if (!Number.isFinite(duration) || duration <= 0) return true;
  for (let i = 0; i < seekable.length; i += 1) {
    if (seekable.start(i) <= 0.5 && seekable.end(i) >= duration - 0.5) return true;
  }
  return false;
}

export const attachNative: AttachEngine = ({ video, url, live }, hooks) => {
  const onError = () => hooks.fail(video.error?.message || `MediaError ${video.error?.code ?? ''}`, video.error?.code);
  const onMetadata = () => {
    if (!live && !seeksAnywhere(video)) hooks.report({ kind: 'noRange', detail: '' });
  };
  video.addEventListener('error', onError);
  video.addEventListener('loadedmetadata', onMetadata, { once: true });
  video.src = url;
  return {
    stop() {
      video.removeEventListener('error', onError);
      video.removeEventListener('loadedmetadata', onMetadata);
    },
  };
};
