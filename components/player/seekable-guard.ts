/**
 * Keeps every reader of a media element's `seekable` (the sync engine, media-chrome's seek bar and
 * live-edge state, the engines) from asking before the element has metadata (docs/browsers.md
 * "WebKit"). Until then the HTML spec makes the ranges empty anyway, but WebKitGTK's GStreamer player
 * answers such a read by taking the current position as the media's duration for good: an MP4 read
 * this way reports a duration of 0.02 s, plays nothing and seeks everyone to 0:00.
 */

/** Empty time ranges, as the HTML spec has `seekable` before metadata (`start`/`end` throw IndexSizeError). */
const EMPTY_RANGES: TimeRanges = {
  length: 0,
  start: () => {
    throw new DOMException('no time range', 'IndexSizeError');
  },
  end: () => {
    throw new DOMException('no time range', 'IndexSizeError');
  },
};

const guarded = new WeakSet<HTMLMediaElement>();

/**
 * Makes `media.seekable` empty until `media.readyState` reaches HAVE_METADATA (1), and the element's
 * own ranges from then on. Idempotent; a no-op where the element has no native `seekable` (jsdom).
 */
export function guardSeekable(media: HTMLMediaElement): void {
  if (guarded.has(media)) return;
  const native = Object.getOwnPropertyDescriptor(HTMLMediaElement.prototype, 'seekable')?.get;
  if (!native) return;
  guarded.add(media);
  Object.defineProperty(media, 'seekable', {
    configurable: true,
    get(this: HTMLMediaElement) {
      return this.readyState >= HTMLMediaElement.HAVE_METADATA ? (native.call(this) as TimeRanges) : EMPTY_RANGES;
    },
  });
}
