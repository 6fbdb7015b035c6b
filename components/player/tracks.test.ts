/**
 * The bridge between an engine's qualities and audio tracks and the menus: with media-tracks' real
 * polyfill on jsdom's <video>, what the menus read (`videoRenditions`, `audioTracks`) and what a pick
 * in them does to the engine.
 */
import type { TrackSource } from './tracks';

// jsdom has its own (scripted, so not "[native code]") videoTracks and audioTracks, which media-tracks
// leaves in place; without them it installs its polyfill, as it does in Chromium, which has none.
delete (HTMLMediaElement.prototype as Partial<Record<'videoTracks' | 'audioTracks', unknown>>).videoTracks;
delete (HTMLMediaElement.prototype as Partial<Record<'videoTracks' | 'audioTracks', unknown>>).audioTracks;
let bridgeTracks: typeof import('./tracks').bridgeTracks;
let hlsTrackSource: typeof import('./tracks').hlsTrackSource;
beforeAll(async () => {
  ({ bridgeTracks, hlsTrackSource } = await import('./tracks'));
});

type Tracked = HTMLVideoElement & {
  videoRenditions: EventTarget & { length: number; selectedIndex: number; [index: number]: { height?: number; bitrate?: number } };
  audioTracks: EventTarget & { length: number; [index: number]: { label: string; language: string; enabled: boolean } };
};

/** A stand-in engine with three qualities and two audio tracks that records the picks. */
function fakeSource() {
  const picks: string[] = [];
  let changed: (() => void) | null = null;
  let qualities = [
    { width: 640, height: 360, bitrate: 800_000 },
    { width: 1280, height: 720, bitrate: 2_500_000 },
    { width: 1920, height: 1080, bitrate: 5_000_000 },
  ];
  let audio = 0;
  const source: TrackSource = {
    qualities: () => qualities,
    audio: () => [
      { label: '中文', language: 'zh' },
      { label: 'English', language: 'en' },
    ],
    selectedAudio: () => audio,
    selectQuality: (index) => picks.push(`quality ${index}`),
    selectAudio: (index) => {
      audio = index;
      picks.push(`audio ${index}`);
    },
    subscribe: (callback) => {
      changed = callback;
      return () => (changed = null);
    },
  };
  return {
    source,
    picks,
    /** The engine found other qualities (a new manifest). */
    replaceQualities(next: typeof qualities) {
      qualities = next;
      changed?.();
    },
  };
}

describe('bridgeTracks', () => {
  it('publishes the qualities and audio tracks where the menus read them', () => {
    const video = document.createElement('video') as Tracked;
    const { source } = fakeSource();
    bridgeTracks(video, source);
    expect(video.videoRenditions.length).toBe(3);
    expect(Array.from({ length: 3 }, (_, i) => video.videoRenditions[i].height)).toEqual([360, 720, 1080]);
    expect(video.audioTracks.length).toBe(2);
    expect([video.audioTracks[0].label, video.audioTracks[0].enabled, video.audioTracks[1].language, video.audioTracks[1].enabled]).toEqual(['中文', true, 'en', false]);
  });

  it("applies a pick in the menus to the engine: a quality, automatic again, an audio track", async () => {
    const video = document.createElement('video') as Tracked;
    const { source, picks } = fakeSource();
    bridgeTracks(video, source);
    // media-tracks reports changes asynchronously, as media elements do; a viewer picks one at a time.
    const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
    video.videoRenditions.selectedIndex = 2;
    await settle();
    video.videoRenditions.selectedIndex = -1;
    await settle();
    // As media-chrome's audio menu does: every track's `enabled` set, only the picked one true.
    for (let i = 0; i < video.audioTracks.length; i += 1) video.audioTracks[i].enabled = i === 1;
    await settle();
    expect(picks).toEqual(['quality 2', 'quality -1', 'audio 1']);
  });

  it("keeps the viewer's quality when the engine republishes its list, without calling the engine again", async () => {
    const video = document.createElement('video') as Tracked;
    const fake = fakeSource();
    bridgeTracks(video, fake.source);
    video.videoRenditions.selectedIndex = 1;
    await new Promise((resolve) => setTimeout(resolve, 0));
    fake.replaceQualities([
      { width: 640, height: 360, bitrate: 800_000 },
      { width: 1280, height: 720, bitrate: 2_500_000 },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(video.videoRenditions.selectedIndex).toBe(1);
    expect(fake.picks).toEqual(['quality 1']);
  });

  it('follows the engine when its lists change, and removes everything on cleanup', () => {
    const video = document.createElement('video') as Tracked;
    const fake = fakeSource();
    const stop = bridgeTracks(video, fake.source);
    fake.replaceQualities([{ width: 854, height: 480, bitrate: 1_200_000 }]);
    expect(video.videoRenditions.length).toBe(1);
    expect(video.videoRenditions[0].height).toBe(480);
    stop();
    expect(video.videoRenditions.length).toBe(0);
    expect(video.audioTracks.length).toBe(0);
  });
});

describe('hlsTrackSource', () => {
  it("reads hls.js's levels and audio tracks and sets its currentLevel and audioTrack", () => {
    const hls = {
      levels: [{ width: 640, height: 360, bitrate: 800_000, videoCodec: 'avc1.4d401e' }],
      audioTracks: [{ name: '', lang: 'ja' }, { name: 'Commentary', lang: 'en' }],
      audioTrack: 1,
      currentLevel: -1,
      on: jest.fn(),
      off: jest.fn(),
    };
    const source = hlsTrackSource(hls as never, { MANIFEST_PARSED: 'm', LEVELS_UPDATED: 'l', AUDIO_TRACKS_UPDATED: 'a' } as never);
    expect(source.qualities()).toEqual([{ width: 640, height: 360, bitrate: 800_000, codec: 'avc1.4d401e' }]);
    expect(source.audio()).toEqual([{ label: 'ja', language: 'ja' }, { label: 'Commentary', language: 'en' }]);
    expect(source.selectedAudio()).toBe(1);
    source.selectQuality(0);
    source.selectAudio(0);
    expect([hls.currentLevel, hls.audioTrack]).toEqual([0, 0]);
    const unsubscribe = source.subscribe(() => undefined);
    expect(hls.on).toHaveBeenCalledTimes(3);
    unsubscribe();
    expect(hls.off).toHaveBeenCalledTimes(3);
  });
});
