/**
 * The player's control layer, downloaded after the movie's first frame (components/player/player.tsx
 * imports it then, or at once when the viewer reaches for the controls): defines media-chrome's
 * custom elements (controller, control bar, buttons, ranges, the settings menu with quality, audio,
 * captions and speed), its Chinese labels, and media-tracks' polyfill of `videoRenditions` and
 * `audioTracks` on HTMLMediaElement, which the quality and audio menus read.
 *
 * Why media-chrome: it is a set of standard custom elements over the page's own <video>, so the
 * engines we already drive (hls.js light/full, mpegts.js, dash.js) and the sync engine keep the
 * element as it is; Vidstack wants to own the source loading. See README "The player".
 *
 * The bridges below publish an engine's qualities and audio tracks on the element, in the shape
 * media-chrome's menus use, and apply the viewer's choice back to the engine.
 */
import 'media-tracks/polyfill';
import 'media-chrome/media-controller.js';
import 'media-chrome/media-control-bar.js';
import 'media-chrome/media-play-button.js';
import 'media-chrome/media-time-range.js';
import 'media-chrome/media-time-display.js';
import 'media-chrome/media-mute-button.js';
import 'media-chrome/media-volume-range.js';
import 'media-chrome/media-pip-button.js';
import 'media-chrome/media-fullscreen-button.js';
import 'media-chrome/media-loading-indicator.js';
import 'media-chrome/media-live-button.js';
import 'media-chrome/menu/media-settings-menu.js';
import 'media-chrome/menu/media-settings-menu-item.js';
import 'media-chrome/menu/media-settings-menu-button.js';
import 'media-chrome/menu/media-rendition-menu.js';
import 'media-chrome/menu/media-audio-track-menu.js';
import 'media-chrome/menu/media-captions-menu.js';
import 'media-chrome/menu/media-playback-rate-menu.js';
import 'media-chrome/lang/zh-CN.js';
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
  let syncing = false;

  const clear = () => {
    for (const track of Array.from({ length: element.videoTracks.length }, (_, i) => element.videoTracks[i])) element.removeVideoTrack(track);
    for (const track of Array.from({ length: element.audioTracks.length }, (_, i) => element.audioTracks[i])) element.removeAudioTrack(track);
  };

  const publish = () => {
    syncing = true;
    clear();
    const qualities = source.qualities();
    if (qualities.length > 0) {
      const track = element.addVideoTrack('main');
      track.selected = true;
      for (const [index, quality] of qualities.entries()) {
        const rendition = track.addRendition(String(index), quality.width, quality.height, quality.codec, quality.bitrate);
        rendition.id = String(index);
      }
    }
    const selectedAudio = source.selectedAudio();
    for (const [index, option] of source.audio().entries()) {
      const track = element.addAudioTrack(index === 0 ? 'main' : 'alternative', option.label, option.language);
      track.id = String(index);
      track.enabled = index === selectedAudio;
    }
    syncing = false;
  };

  const onQuality = () => {
    if (!syncing) source.selectQuality(element.videoRenditions.selectedIndex);
  };
  const onAudio = () => {
    if (syncing) return;
    for (let i = 0; i < element.audioTracks.length; i += 1) {
      if (element.audioTracks[i].enabled) {
        source.selectAudio(Number(element.audioTracks[i].id));
        return;
      }
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
  setRepresentationForTypeByIndex(type: 'video', index: number): void;
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
      if (!auto) player.setRepresentationForTypeByIndex('video', index);
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
