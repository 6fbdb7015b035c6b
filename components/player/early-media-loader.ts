/**
 * hls.js loaders that first take what the room link's early start already fetched (the current
 * movie's playlist and the segment at a paused room's position, lib/room/early-start.ts
 * `takeEarlyMedia`): on a phone those requests then run while the hall's code is still coming down
 * instead of after it (docs/benchmarks.md "First-frame benchmark"). Anything the early start did not
 * fetch, fetched as something else, or failed to fetch goes to the network through hls.js's own
 * loader as before, with its retries and error handling.
 */
import type { HlsConfig, Loader, LoaderCallbacks, LoaderConfiguration, LoaderContext } from 'hls.js';
import { takeEarlyMedia, type EarlyMedia } from '@/lib/room/early-start';

/** A loader class as hls.js's `loader`, `pLoader` and `fLoader` options take it. */
export type LoaderClass<C extends LoaderContext> = new (config: HlsConfig) => Loader<C>;

/**
 * `Base` (hls.js's default loader, or one derived from it) answering from the early start first.
 * A request with a byte range always goes to the network. The early answer's timings become the
 * loader's statistics (`stats.loading`, `loaded`, `bwEstimate`), from which hls.js estimates the
 * bandwidth. `takeEarly` is for the tests.
 */
export function earlyMediaLoader<C extends LoaderContext>(Base: LoaderClass<C>, takeEarly: typeof takeEarlyMedia = takeEarlyMedia): LoaderClass<C> {
  return class extends (Base as new (config: HlsConfig) => Loader<C>) {
    /** Aborted or destroyed while the early fetch was still under way: nothing more to say. */
    private ended = false;

    load(context: C, config: LoaderConfiguration, callbacks: LoaderCallbacks<C>): void {
      const binary = context.responseType === 'arraybuffer';
      const early = context.rangeEnd ? null : takeEarly(context.url, binary);
      if (!early) {
        super.load(context, config, callbacks);
        return;
      }
      void early.then((media) => {
        if (this.ended) return;
        if (!media || typeof media.data === 'string' === binary) super.load(context, config, callbacks);
        else this.answer(media, context, callbacks);
      });
    }

    abort(): void {
      this.ended = true;
      super.abort();
    }

    destroy(): void {
      this.ended = true;
      super.destroy();
    }

    private answer(media: EarlyMedia, context: C, callbacks: LoaderCallbacks<C>): void {
      const { stats } = this;
      const length = typeof media.data === 'string' ? media.data.length : media.data.byteLength;
      stats.loading.start = media.requestedAt;
      stats.loading.first = media.firstByteAt;
      stats.loading.end = media.receivedAt;
      stats.loaded = stats.total = length;
      stats.bwEstimate = (length * 8000) / Math.max(1, media.receivedAt - media.firstByteAt);
      callbacks.onProgress?.(stats, context, media.data, null);
      callbacks.onSuccess({ url: media.url, data: media.data, code: 200 }, stats, context, null);
    }
  };
}
