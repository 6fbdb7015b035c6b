/**
 * An engine's qualities and audio tracks on the <video>, in the shape media-chrome's quality and
 * audio menus read (`videoRenditions`, `audioTracks`; media-tracks polyfills them, following the
 * media-ui-extensions proposal), and the viewer's choice in those menus applied back to the engine.
 * Loaded with the control layer (./chrome.ts).
 */
import 'media-tracks/polyfill';
import type Hls from 'hls.js';
import type { AudioTrack, VideoRendition } from 'media-tracks';

/** The media-tracks additions on a media element (present once this module has loaded). */
type TrackedMedia = HTMLMediaElement & {
  videoTracks: { length: number; [index: number]: { selected: boolean } } & EventTarget;
  addVideoTrack(kind: string, label?: string, language?: string): { selected: boolean; addRendition(src: string, width?: number, height?: number, codec?: string, bitrate?: number): VideoRendition };
  removeVideoTrack(track: unknown): void;
  videoRenditions: EventTarget & { selectedIndex: number; length: number; [index: number]: VideoRendition };
  audioTracks: EventTarget & { length: number; [index: number]: AudioTrack };
  addAudioTrack(kind: string, label?: string, language?: string): AudioTrack;
  removeAudioTrack(track: AudioTrack): void;
};

/** One quality of a source: its size (px) and bitrate (bits/s), as the engine numbers it. */
export interface QualityOption {
  width?: number;
  height?: number;
  bitrate?: number;
  codec?: string;
}

/** One audio track of a source: the label shown (name, else language) and its language code. */
export interface AudioOption {
  label: string;
  language: string;
}

/**
 * What an engine offers the menus: its qualities (in the engine's own order) and audio tracks, which
 * are selected, and how to select another (`quality -1` = automatic).
 */
export interface TrackSource {
  qualities(): QualityOption[];
  audio(): AudioOption[];
  selectedAudio(): number;
  selectQuality(index: number): void;
  selectAudio(index: number): void;
  /** Calls `changed` whenever the engine's lists change; returns the unsubscribe. */
  subscribe(changed: () => void): () => void;
}

/**
 * Publishes `source`'s qualities as one video track with renditions and its audio tracks on `media`,
 * and applies the viewer's picks from media-chrome's menus back to the engine. Returns the cleanup
 * that removes them (the element may outlive the engine, e.g. on a source switch).
 */
export function bridgeTracks(media: HTMLMediaElement, source: TrackSource): () => void {
  const element = media as TrackedMedia;
  /** The viewer's quality pick (-1 automatic). The lists report changes asynchronously, so the
   * handlers compare with what the engine already has instead of trusting a "publishing" flag. */
  let quality = -1;

  const clear = () => {
    for (const track of Array.from({ length: element.videoTracks.length }, (_, i) => element.videoTracks[i])) element.removeVideoTrack(track);
    for (const track of Array.from({ length: element.audioTracks.length }, (_, i) => element.audioTracks[i])) element.removeAudioTrack(track);
  };

  const publish = () => {
    clear();
    const qualities = source.qualities();
    if (quality >= qualities.length) quality = -1;
    if (qualities.length > 0) {
      const track = element.addVideoTrack('main');
      track.selected = true;
      for (const [index, option] of qualities.entries()) {
        const rendition = track.addRendition(String(index), option.width, option.height, option.codec, option.bitrate);
        rendition.id = String(index);
        if (index === quality) rendition.selected = true;
      }
    }
    const selectedAudio = source.selectedAudio();
    for (const [index, option] of source.audio().entries()) {
      const track = element.addAudioTrack(index === 0 ? 'main' : 'alternative', option.label, option.language);
      track.id = String(index);
      track.enabled = index === selectedAudio;
    }
  };

  const onQuality = () => {
    const picked = element.videoRenditions.selectedIndex;
    if (picked === quality) return;
    quality = picked;
    source.selectQuality(picked);
  };
  const onAudio = () => {
    for (let i = 0; i < element.audioTracks.length; i += 1) {
      if (!element.audioTracks[i].enabled) continue;
      const picked = Number(element.audioTracks[i].id);
      if (picked !== source.selectedAudio()) source.selectAudio(picked);
      return;
    }
  };

  publish();
  const unsubscribe = source.subscribe(publish);
  element.videoRenditions.addEventListener('change', onQuality);
  element.audioTracks.addEventListener('change', onAudio);
  return () => {
    unsubscribe();
    element.videoRenditions.removeEventListener('change', onQuality);
    element.audioTracks.removeEventListener('change', onAudio);
    clear();
  };
}

/** hls.js levels and audio tracks as a TrackSource (levels = qualities, `currentLevel -1` = auto). */
export function hlsTrackSource(hls: Hls, events: typeof Hls.Events): TrackSource {
  return {
    qualities: () => hls.levels.map((level) => ({ width: level.width, height: level.height, bitrate: level.bitrate, codec: level.videoCodec })),
    audio: () => hls.audioTracks.map((track) => ({ label: track.name || track.lang || '', language: track.lang ?? '' })),
    selectedAudio: () => hls.audioTrack,
    selectQuality: (index) => {
      hls.currentLevel = index;
    },
    selectAudio: (index) => {
      hls.audioTrack = index;
    },
    subscribe: (changed) => {
      const names = [events.MANIFEST_PARSED, events.LEVELS_UPDATED, events.AUDIO_TRACKS_UPDATED] as const;
      for (const name of names) hls.on(name, changed);
      return () => {
        for (const name of names) hls.off(name, changed);
      };
    },
  };
}

/** The part of a dash.js MediaPlayer the bridge uses. */
export interface DashPlayerLike {
  getRepresentationsByType(type: 'video' | 'audio'): { width?: number; height?: number; bandwidth?: number; codecs?: string }[];
  getTracksFor(type: 'audio'): { lang?: string; labels?: { text: string }[] }[];
  getCurrentTrackFor(type: 'audio'): unknown;
  setCurrentTrack(track: unknown): void;
  setRepresentationForTypeByIndex(type: 'video', index: number, forceReplace?: boolean): void;
  updateSettings(settings: object): void;
  on(event: string, handler: () => void): void;
  off(event: string, handler: () => void): void;
}

/** dash.js video representations and audio tracks as a TrackSource. */
export function dashTrackSource(player: DashPlayerLike, streamInitialized: string): TrackSource {
  return {
    qualities: () => player.getRepresentationsByType('video').map((rep) => ({ width: rep.width, height: rep.height, bitrate: rep.bandwidth, codec: rep.codecs })),
    audio: () => player.getTracksFor('audio').map((track) => ({ label: track.labels?.[0]?.text || track.lang || '', language: track.lang ?? '' })),
    selectedAudio: () => player.getTracksFor('audio').indexOf(player.getCurrentTrackFor('audio') as never),
    selectQuality: (index) => {
      const auto = index < 0;
      player.updateSettings({ streaming: { abr: { autoSwitchBitrate: { video: auto } } } });
      // Replacing what is buffered: a viewer who picks a quality sees it now, not after the buffer
      // (a whole short film, with bilibili's single-file streams) has played out.
      if (!auto) player.setRepresentationForTypeByIndex('video', index, true);
    },
    selectAudio: (index) => {
      const track = player.getTracksFor('audio')[index];
      if (track) player.setCurrentTrack(track);
    },
    subscribe: (changed) => {
      player.on(streamInitialized, changed);
      return () => player.off(streamInitialized, changed);
    },
  };
}
