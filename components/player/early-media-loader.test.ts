/**
 * The hls.js loaders that take the early start's media first (./early-media-loader.ts), over a fake
 * of hls.js's default loader that records what went to the network.
 */
import type { HlsConfig, Loader, LoaderCallbacks, LoaderConfiguration, LoaderContext, LoaderStats } from 'hls.js';
import type { EarlyMedia } from '@/lib/room/early-start';
import { earlyMediaLoader } from './early-media-loader';

const stats = (): LoaderStats => ({
  aborted: false,
  loaded: 0,
  retry: 0,
  total: 0,
  chunkCount: 0,
  bwEstimate: 0,
  loading: { start: 0, first: 0, end: 0 },
  parsing: { start: 0, end: 0 },
  buffering: { start: 0, first: 0, end: 0 },
});

/** hls.js's default loader as far as the wrapper uses it: `load` goes to the "network" (recorded). */
class NetworkLoader implements Loader<LoaderContext> {
  static loads: string[] = [];
  context: LoaderContext | null = null;
  stats = stats();
  constructor(_config: HlsConfig) {}
  load(context: LoaderContext, _config: LoaderConfiguration, callbacks: LoaderCallbacks<LoaderContext>) {
    NetworkLoader.loads.push(context.url);
    callbacks.onSuccess({ url: context.url, data: 'from the network', code: 200 }, this.stats, context, null);
  }
  abort() {}
  destroy() {}
}

const config = {} as LoaderConfiguration;
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function callbacks() {
  return { onSuccess: jest.fn(), onError: jest.fn(), onTimeout: jest.fn(), onProgress: jest.fn() };
}

beforeEach(() => {
  NetworkLoader.loads = [];
});

describe('earlyMediaLoader', () => {
  const playlist: EarlyMedia = { url: 'https://m.example/v/index.m3u8', data: '#EXTM3U', requestedAt: 100, firstByteAt: 250, receivedAt: 350 };

  it("answers from the early start with its timings, and asks the network for what it has not", async () => {
    const take = jest.fn((url: string, binary: boolean) => (url === playlist.url && !binary ? Promise.resolve(playlist) : null));
    const Loader = earlyMediaLoader(NetworkLoader, take);
    const early = callbacks();
    new Loader({} as HlsConfig).load({ url: playlist.url, responseType: 'text' } as LoaderContext, config, early);
    expect(early.onSuccess).not.toHaveBeenCalled();
    await settle();
    expect(early.onSuccess).toHaveBeenCalledWith({ url: playlist.url, data: '#EXTM3U', code: 200 }, expect.objectContaining({ loaded: 7, total: 7, loading: { start: 100, first: 250, end: 350 } }), expect.anything(), null);
    expect(early.onSuccess.mock.calls[0][1].bwEstimate).toBeCloseTo((7 * 8000) / 100);

    const other = callbacks();
    new Loader({} as HlsConfig).load({ url: 'https://m.example/v/seg0.ts', responseType: 'arraybuffer' } as LoaderContext, config, other);
    expect(other.onSuccess).toHaveBeenCalledWith(expect.objectContaining({ data: 'from the network' }), expect.anything(), expect.anything(), null);
    expect(NetworkLoader.loads).toEqual(['https://m.example/v/seg0.ts']);
    expect(take).toHaveBeenLastCalledWith('https://m.example/v/seg0.ts', true);
  });

  it('goes to the network when the early fetch failed, and for a byte range', async () => {
    const Loader = earlyMediaLoader(NetworkLoader, () => Promise.resolve(null));
    const failed = callbacks();
    new Loader({} as HlsConfig).load({ url: playlist.url, responseType: 'text' } as LoaderContext, config, failed);
    await settle();
    expect(failed.onSuccess).toHaveBeenCalledWith(expect.objectContaining({ data: 'from the network' }), expect.anything(), expect.anything(), null);

    const take = jest.fn(() => Promise.resolve(playlist));
    const ranged = callbacks();
    new (earlyMediaLoader(NetworkLoader, take))({} as HlsConfig).load({ url: playlist.url, responseType: 'text', rangeStart: 0, rangeEnd: 10 } as LoaderContext, config, ranged);
    expect(take).not.toHaveBeenCalled();
    expect(NetworkLoader.loads).toEqual([playlist.url, playlist.url]);
  });

  it('says nothing once aborted or destroyed while the early fetch is under way', async () => {
    const Loader = earlyMediaLoader(NetworkLoader, () => Promise.resolve(playlist));
    for (const end of ['abort', 'destroy'] as const) {
      const quiet = callbacks();
      const loader = new Loader({} as HlsConfig);
      loader.load({ url: playlist.url, responseType: 'text' } as LoaderContext, config, quiet);
      loader[end]();
      await settle();
      expect(quiet.onSuccess).not.toHaveBeenCalled();
    }
    expect(NetworkLoader.loads).toEqual([]);
  });
});
