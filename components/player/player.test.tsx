/**
 * Which engine plays a movie: hls.js's light build for HLS, switched to the full build when the
 * stream needs it, the native element for the rest. hls.js itself is replaced by a stand-in that
 * records what the player asks of it (jsdom has no Media Source Extensions).
 */
import { act, render, screen, waitFor } from '@testing-library/react';
import { translate } from '@/lib/i18n/messages';
import '@/lib/i18n/messages/player-problem';
import { isHlsSource, sourceKind } from '@/lib/contract/source-kind';
import { SOURCE_RETRY_MS } from './engines/hls';
import { Player } from './player';
import { WatchOnlyReason } from './watch-only-reason';

// jotai (behind useT) ships ESM only, which this jest setup does not transform; the catalogue itself is real.
jest.mock('@/lib/i18n', () => {
  const { translate } = jest.requireActual('@/lib/i18n/messages');
  const t = (key: string, params?: Record<string, string | number>) => translate('zh', key, params);
  return { useT: () => t, t, useLocale: () => ['zh', () => undefined] };
});
jest.mock('hls.js/light', () => mockHlsModule('light'));
// The control layer (media-chrome's custom elements) is not what these tests are about; the bridge
// that feeds its menus records what it was given.
const mockBridged: string[] = [];
jest.mock('@/components/player/chrome', () => ({
  hlsTrackSource: () => ({ name: 'hls' }),
  dashTrackSource: () => ({ name: 'dash' }),
  bridgeTracks: (_video: HTMLVideoElement, source: { name: string }) => {
    mockBridged.push(source.name);
    return () => undefined;
  },
}));
jest.mock('hls.js', () => mockHlsModule('full'));
/** What the FLV/MPEG-TS and DASH stand-ins were asked to do, in order. */
const mockCalls: string[] = [];
jest.mock('mpegts.js', () => ({
  __esModule: true,
  default: {
    isSupported: () => true,
    Events: { ERROR: 'error' },
    createPlayer: (source: { type: string; url: string; isLive: boolean }, config: { headers?: Record<string, string> }) => {
      mockCalls.push(`mpegts ${source.type} ${source.url} live=${source.isLive} headers=${JSON.stringify(config.headers)}`);
      return {
        on: () => undefined,
        attachMediaElement: () => mockCalls.push('mpegts attach'),
        load: () => mockCalls.push('mpegts load'),
        unload: () => mockCalls.push('mpegts unload'),
        detachMediaElement: () => undefined,
        destroy: () => mockCalls.push('mpegts destroy'),
      };
    },
  },
}));
jest.mock('dashjs', () => ({
  MediaPlayer: Object.assign(
    () => ({
      create: () => ({
        on: () => undefined,
        addRequestInterceptor: () => undefined,
        initialize: (_video: HTMLVideoElement, url: string, autoPlay: boolean) => mockCalls.push(`dash ${url} autoplay=${autoPlay}`),
        destroy: () => mockCalls.push('dash destroy'),
      }),
    }),
    { events: { ERROR: 'error' } },
  ),
}));

type Listener = (event: string, data: unknown) => void;
/** What a fake loader is given: the fragment's context and the callbacks its load answers. */
type FakeCallbacks = { onSuccess: (response: { data: unknown }, stats: unknown, context: unknown, details: unknown) => void };
interface FakeConfig {
  xhrSetup: (xhr: { setRequestHeader(name: string, value: string): void }, url: string) => void;
  fLoader: new (config: unknown) => { load(context: unknown, config: unknown, callbacks: FakeCallbacks): void };
}

/** hls.js's default loader, as the fake: it "loads" whatever the test put in `mockSegment`. */
let mockSegment: ArrayBuffer = new ArrayBuffer(0);
class FakeLoader {
  load(context: unknown, _config: unknown, callbacks: FakeCallbacks): void {
    callbacks.onSuccess({ data: mockSegment }, {}, context, null);
  }
}

/** Every hls.js instance the player created, oldest first. */
const mockInstances: FakeHls[] = [];
let mockMseSupported = true;

class FakeHls {
  static DefaultConfig = { loader: FakeLoader };
  static Events = { ERROR: 'hlsError', MANIFEST_LOADED: 'hlsManifestLoaded', LEVEL_LOADED: 'hlsLevelLoaded' };
  static ErrorTypes = { NETWORK_ERROR: 'networkError', MEDIA_ERROR: 'mediaError', OTHER_ERROR: 'otherError' };
  static isSupported(): boolean {
    return mockMseSupported;
  }

  source = '';
  media: HTMLMediaElement | null = null;
  destroyed = false;
  startLoads = 0;
  private readonly listeners = new Map<string, Listener[]>();

  constructor(
    readonly build: 'light' | 'full',
    private readonly config: FakeConfig,
  ) {
    mockInstances.push(this);
  }

  on(event: string, listener: Listener): void {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
  }

  emit(event: string, data: unknown): void {
    for (const listener of this.listeners.get(event) ?? []) listener(event, data);
  }

  loadSource(url: string): void {
    this.source = url;
  }

  attachMedia(media: HTMLMediaElement): void {
    this.media = media;
  }

  startLoad(): void {
    this.startLoads += 1;
  }

  recoverMediaError(): void {}

  destroy(): void {
    this.destroyed = true;
    this.listeners.clear();
  }

  /** What this instance's fragment loader hands hls.js for a segment that arrives as `data`. */
  loadFragment(data: ArrayBuffer, encrypted = false): ArrayBuffer {
    mockSegment = data;
    let delivered: unknown = null;
    new this.config.fLoader({}).load({ frag: { encrypted } }, {}, { onSuccess: (response) => (delivered = response.data) });
    return delivered as ArrayBuffer;
  }

  /** The headers this instance's xhrSetup puts on a request. */
  requestHeaders(): Record<string, string> {
    const headers: Record<string, string> = {};
    this.config.xhrSetup({ setRequestHeader: (name, value) => (headers[name] = value) }, 'https://cdn.test/seg0.ts');
    return headers;
  }
}

function mockHlsModule(build: 'light' | 'full') {
  return {
    __esModule: true,
    default: class extends FakeHls {
      constructor(config: FakeConfig) {
        super(build, config);
      }
    },
  };
}

/** MANIFEST_LOADED of a plain stream and of one with a subtitle rendition (fields as hls.js reports them). */
const PLAIN_MANIFEST = { audioTracks: [], subtitles: [], captions: [], levels: [{ videoCodec: 'avc1.64001f', audioCodec: 'mp4a.40.2' }], networkDetails: null };
const SUBTITLED_MANIFEST = { ...PLAIN_MANIFEST, subtitles: [{ url: 'https://cdn.test/subs.m3u8' }] };

const HLS_URL = 'https://cdn.test/master.m3u8';
const HEADERS = { Referer: 'https://site.test/' };

/** Lets pending promises (dynamic imports) and microtasks run. */
const settle = () => act(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));

beforeEach(() => {
  mockInstances.length = 0;
  mockMseSupported = true;
  // jsdom does not implement media loading; the player calls load() when it lets go of a source.
  jest.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => {});
});

afterEach(() => jest.restoreAllMocks());

describe('isHlsSource', () => {
  it('follows the movie type when set', () => {
    expect(isHlsSource('https://x/a', 'm3u8')).toBe(true);
    expect(isHlsSource('https://x/a.m3u8', 'mp4')).toBe(false);
  });

  it('guesses from the URL path otherwise, ignoring the query', () => {
    expect(isHlsSource('https://x/live/index.m3u8?token=a')).toBe(true);
    expect(isHlsSource('/api/room/movie/live/hls/list/abc.m3u8?token=&roomId=r')).toBe(true);
    expect(isHlsSource('https://x/movie.mp4?m3u8=1')).toBe(false);
  });
});

describe('Player', () => {
  it('plays a plain HLS stream with the light build, sending the movie headers', async () => {
    render(<Player url={HLS_URL} headers={HEADERS} onVideo={() => {}} />);
    await waitFor(() => expect(mockInstances).toHaveLength(1));
    const [light] = mockInstances;
    expect(light.build).toBe('light');
    expect(light.source).toBe(HLS_URL);
    expect(light.media).toBe(screen.getByTestId('player-video'));
    expect(light.requestHeaders()).toEqual(HEADERS);

    act(() => light.emit(FakeHls.Events.MANIFEST_LOADED, PLAIN_MANIFEST));
    await settle();
    expect(mockInstances).toHaveLength(1);
    expect(light.destroyed).toBe(false);
  });

  it('hands hls.js a segment from its first TS packet (a real server may put a PNG header in front)', async () => {
    render(<Player url={HLS_URL} onVideo={() => undefined} />);
    await settle();
    const [light] = mockInstances;
    const packets = new Uint8Array(3 * 188);
    for (const offset of [0, 188, 376]) packets[offset] = 0x47;
    const disguised = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, ...packets]).buffer;
    expect(new Uint8Array(light.loadFragment(disguised))).toEqual(packets);
    // An encrypted segment is left alone (its bytes are not packets until decrypted).
    expect(light.loadFragment(disguised, true)).toBe(disguised);
  });

  it('switches to the full build on the same <video> when the stream has subtitles', async () => {
    render(<Player url={HLS_URL} headers={HEADERS} onVideo={() => {}} />);
    await waitFor(() => expect(mockInstances).toHaveLength(1));
    const [light] = mockInstances;

    act(() => light.emit(FakeHls.Events.MANIFEST_LOADED, SUBTITLED_MANIFEST));
    await waitFor(() => expect(mockInstances).toHaveLength(2));
    const full = mockInstances[1];
    expect(light.destroyed).toBe(true);
    expect(full.build).toBe('full');
    expect(full.source).toBe(HLS_URL);
    expect(full.media).toBe(screen.getByTestId('player-video'));
    expect(full.requestHeaders()).toEqual(HEADERS);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('drops a pending switch to the full build when the player unmounts', async () => {
    const { unmount } = render(<Player url={HLS_URL} onVideo={() => {}} />);
    await waitFor(() => expect(mockInstances).toHaveLength(1));
    const [light] = mockInstances;

    // The movie changes (or the hall closes) right after the light build asked for the full one.
    act(() => light.emit(FakeHls.Events.MANIFEST_LOADED, SUBTITLED_MANIFEST));
    unmount();
    await settle();
    expect(light.destroyed).toBe(true);
    expect(mockInstances).toHaveLength(1);
  });

  it('says at once in words why the playlist could not be loaded, and tries the source again a while later', async () => {
    jest.useFakeTimers({ advanceTimers: true });
    // The probe of the URL finds no server at all (DNS or connection failure).
    global.fetch = jest.fn().mockRejectedValue(new TypeError('Failed to fetch'));
    render(<Player url={HLS_URL} onVideo={() => {}} />);
    await waitFor(() => expect(mockInstances).toHaveLength(1));
    const [light] = mockInstances;
    // hls.js has retried the request by itself before it calls the error fatal.
    act(() => light.emit(FakeHls.Events.ERROR, { fatal: true, type: FakeHls.ErrorTypes.NETWORK_ERROR, details: 'manifestLoadError' }));
    expect(light.startLoads).toBe(0);
    expect(light.destroyed).toBe(true);
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(translate('zh', 'playerProblem.problem.unreachable')));
    act(() => void jest.advanceTimersByTime(SOURCE_RETRY_MS));
    await waitFor(() => expect(mockInstances).toHaveLength(2));
    expect(mockInstances[1].source).toBe(HLS_URL);
    jest.useRealTimers();
  });

  it('loads a failing segment again three times, then says in words why it failed', async () => {
    global.fetch = jest.fn().mockRejectedValue(new TypeError('Failed to fetch'));
    render(<Player url={HLS_URL} onVideo={() => {}} />);
    await waitFor(() => expect(mockInstances).toHaveLength(1));
    const [light] = mockInstances;
    const fatal = { fatal: true, type: FakeHls.ErrorTypes.NETWORK_ERROR, details: 'fragLoadError' };
    for (let attempt = 0; attempt < 3; attempt += 1) act(() => light.emit(FakeHls.Events.ERROR, fatal));
    expect(light.startLoads).toBe(3);
    expect(screen.queryByRole('alert')).toBeNull();
    act(() => light.emit(FakeHls.Events.ERROR, fatal));
    expect(light.destroyed).toBe(true);
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(translate('zh', 'playerProblem.problem.unreachable')));
  });

  it("falls back to the browser's own HLS without Media Source Extensions (Safari)", async () => {
    mockMseSupported = false;
    jest.spyOn(HTMLMediaElement.prototype, 'canPlayType').mockReturnValue('maybe');
    render(<Player url={HLS_URL} onVideo={() => {}} />);
    await waitFor(() => expect(screen.getByTestId('player-video')).toHaveAttribute('src', HLS_URL));
    expect(mockInstances).toHaveLength(0);
  });

  it('says so when the browser cannot play HLS at all', async () => {
    mockMseSupported = false;
    render(<Player url={HLS_URL} onVideo={() => {}} />);
    expect(await screen.findByRole('alert')).toHaveTextContent(translate('zh', 'playerProblem.problem.unsupportedFormat', { format: 'HLS (m3u8)' }));
  });

  it('plays mp4 natively and hands the <video> to onVideo', async () => {
    const onVideo = jest.fn();
    const { unmount } = render(<Player url="https://cdn.test/movie.mp4" onVideo={onVideo} />);
    const video = screen.getByTestId('player-video');
    expect(video).toHaveAttribute('src', 'https://cdn.test/movie.mp4');
    expect(onVideo).toHaveBeenLastCalledWith(video);
    await settle();
    expect(mockInstances).toHaveLength(0);
    unmount();
    expect(onVideo).toHaveBeenLastCalledWith(null);
  });
});

describe('Player controls', () => {
  /** The first frame arrived: the control layer is loaded and shown. */
  /** The first frame arrives, and the player's short wait after it passes. */
  const firstFrame = async (video: HTMLVideoElement) => {
    jest.useFakeTimers();
    act(() => void video.dispatchEvent(new Event('loadeddata')));
    act(() => void jest.advanceTimersByTime(2000));
    jest.useRealTimers();
    await settle();
  };

  it('disables play and seek with the reason for a viewer without playback control, and turns off their keys and clicks', async () => {
    // The hall shows the reason under the player (components/player/player-panel.tsx).
    const { container } = render(
      <>
        <Player url="https://media.example/clip.mp4" onVideo={() => undefined} canControl={false} />
        <WatchOnlyReason />
      </>,
    );
    const video = container.querySelector('video')!;
    expect(video.hasAttribute('controls')).toBe(false);
    await firstFrame(video);
    const play = screen.getByTestId('watch-only-play');
    expect(play).toHaveAttribute('disabled');
    expect(play).toHaveAccessibleDescription(translate('zh', 'cinema.player.watchOnly'));
    expect(screen.getByTestId('player-seek')).toHaveAttribute('disabled');
    const controller = screen.getByTestId('player');
    expect(controller.getAttribute('hotkeys')).toContain('nospace');
    expect(controller.hasAttribute('gesturesdisabled')).toBe(true);
    // Mute, quality, subtitles and fullscreen stay theirs.
    expect(screen.getByTestId('player-mute')).not.toHaveAttribute('disabled');
    expect(screen.getByTestId('player-fullscreen')).not.toHaveAttribute('disabled');
    // No speed for them; the menu keeps what only changes their own view (aspect ratio, flip).
    expect(screen.getByTestId('player-settings')).toBeInTheDocument();
    expect(screen.queryByTestId('player-speed-menu')).toBeNull();
  });

  it('gives every control to a viewer who may control playback, once the first frame is there', async () => {
    const { container } = render(<Player url="https://media.example/clip.mp4" onVideo={() => undefined} />);
    const video = container.querySelector('video')!;
    jest.useFakeTimers();
    act(() => void video.dispatchEvent(new Event('loadeddata')));
    // Not at the first frame itself: the picture and the first sync go first.
    act(() => void jest.advanceTimersByTime(1000));
    expect(screen.queryByTestId('player-controls')).toBeNull();
    act(() => void jest.advanceTimersByTime(1000));
    jest.useRealTimers();
    await settle();
    expect(screen.getByTestId('player-play')).not.toHaveAttribute('disabled');
    expect(screen.getByTestId('player-seek')).not.toHaveAttribute('disabled');
    expect(screen.getByTestId('player').getAttribute('hotkeys')).toBe('noc');
    expect(screen.getByTestId('player-settings')).toBeInTheDocument();
    expect(screen.queryByTestId('watch-only-reason')).toBeNull();
  });

  it("puts its own spinner in the loading indicator (media-chrome's own animates while hidden, redrawing the page every frame)", async () => {
    const { container } = render(<Player url="https://media.example/clip.mp4" onVideo={() => undefined} />);
    await firstFrame(container.querySelector('video')!);
    const icon = container.querySelector('media-loading-indicator > [slot="icon"]');
    // app/globals.css turns `.player-spinner` only while the indicator shows.
    expect(icon).toHaveClass('player-spinner');
    expect(icon?.querySelector('animate, animateTransform')).toBeNull();
  });

  it('moves to the chat on c', async () => {
    const onChat = jest.fn();
    render(<Player url="https://media.example/clip.mp4" onVideo={() => undefined} onChatShortcut={onChat} />);
    act(() => void screen.getByTestId('player').dispatchEvent(new KeyboardEvent('keydown', { key: 'c', bubbles: true })));
    expect(onChat).toHaveBeenCalledTimes(1);
  });

  it('feeds the HLS qualities and audio tracks to the menus', async () => {
    mockBridged.length = 0;
    const { container } = render(<Player url={HLS_URL} onVideo={() => undefined} />);
    await waitFor(() => expect(mockInstances).toHaveLength(1));
    await firstFrame(container.querySelector('video')!);
    await waitFor(() => expect(mockBridged).toEqual(['hls']));
  });

  it('swaps to a new URL of the same movie on the same element, and leaves its position to the sync engine', async () => {
    const { container, rerender } = render(<Player url="https://media.example/a.mp4" onVideo={() => undefined} />);
    const video = container.querySelector('video')!;
    video.currentTime = 42;
    rerender(<Player url="https://media.example/b.mp4" onVideo={() => undefined} />);
    expect(container.querySelector('video')).toBe(video);
    expect(video).toHaveAttribute('src', 'https://media.example/b.mp4');
    video.currentTime = 0;
    act(() => void video.dispatchEvent(new Event('loadedmetadata')));
    // A seek of the player's own would be taken for the viewer's (lib/sync/engine.ts brings it back).
    expect(video.currentTime).toBe(0);
  });
});

describe('FLV, MPEG-TS and DASH', () => {
  beforeEach(() => mockCalls.splice(0));

  it('picks the engine from the type, else from the extension', () => {
    expect(sourceKind('https://x.test/live', 'flv')).toBe('flv');
    expect(sourceKind('https://x.test/a.flv?token=1')).toBe('flv');
    expect(sourceKind('https://x.test/a.ts')).toBe('mpegts');
    expect(sourceKind('https://x.test/a', 'mpegts')).toBe('mpegts');
    expect(sourceKind('https://x.test/manifest.mpd')).toBe('dash');
    expect(sourceKind('https://x.test/a.mp4')).toBe('native');
    expect(sourceKind('https://x.test/a.webm', 'webm')).toBe('native');
    // MPEG-TS under its other names, and mpegts.js's MSE player (the reference client's `mse`, spelled `mes` there).
    for (const type of ['m2ts', 'm2t', 'mts', 'mse', 'mes']) expect(sourceKind('https://x.test/stream', type)).toBe('mpegts');
    for (const file of ['a.m2ts', 'a.m2t', 'a.mts']) expect(sourceKind(`https://x.test/${file}`)).toBe('mpegts');
  });

  it('plays FLV with mpegts.js, live and with the movie headers, and stops it on unmount', async () => {
    const { unmount } = render(<Player url="https://x.test/live.flv" live headers={{ Referer: 'https://x.test/' }} onVideo={() => undefined} />);
    await waitFor(() => expect(mockCalls).toContain('mpegts load'));
    expect(mockCalls[0]).toBe('mpegts flv https://x.test/live.flv live=true headers={"Referer":"https://x.test/"}');
    unmount();
    expect(mockCalls.slice(-2)).toEqual(['mpegts unload', 'mpegts destroy']);
  });

  it('plays DASH with dash.js without autoplay (the sync engine starts it)', async () => {
    const { unmount } = render(<Player url="https://x.test/manifest.mpd" onVideo={() => undefined} />);
    await waitFor(() => expect(mockCalls).toEqual(['dash https://x.test/manifest.mpd autoplay=false']));
    unmount();
    expect(mockCalls).toContain('dash destroy');
  });
});
