/**
 * What the player's quality, audio and subtitle menus offer (docs/player.md "Menus"): the engine's
 * qualities and audio tracks bridged to the element's rendition and track lists (./tracks.ts, with
 * the controls' module), and how many of each there are, so a menu with nothing to choose is left out.
 */
import { useEffect, useState, type RefObject } from 'react';
import type { TrackEngine } from './engines';
import { loadChrome } from './use-chrome';

/** How many qualities, audio tracks and subtitle tracks the element offers. */
export interface MenuCounts {
  qualities: number;
  audio: number;
  subtitles: number;
}

type ListLike = EventTarget & { length: number };
type VideoWithLists = HTMLVideoElement & { videoRenditions?: ListLike; audioTracks?: ListLike };

const LIST_EVENTS = ['addtrack', 'removetrack', 'addrendition', 'removerendition'];

/** Counts what `video` offers now. */
function countMenus(video: VideoWithLists): MenuCounts {
  return {
    qualities: video.videoRenditions?.length ?? 0,
    audio: video.audioTracks?.length ?? 0,
    subtitles: Array.from(video.textTracks ?? []).filter((track) => track.kind === 'subtitles' || track.kind === 'captions').length,
  };
}

/**
 * Bridges `engine`'s qualities and audio tracks to the element of `videoRef` once the controls are
 * there (`chromeReady`: their module is not asked for before, the picture comes first), and returns
 * the menus' counts, kept current as tracks come and go.
 */
export function useTrackMenus(videoRef: RefObject<HTMLVideoElement | null>, engine: TrackEngine | null, chromeReady: boolean): MenuCounts {
  useEffect(() => {
    const video = videoRef.current;
    if (!video || !engine || !chromeReady) return;
    let stop: (() => void) | null = null;
    let cancelled = false;
    loadChrome()
      .then(({ bridgeTracks, hlsTrackSource, dashTrackSource }) => {
        if (cancelled) return;
        const source = engine.kind === 'hls' ? hlsTrackSource(engine.hls, engine.events) : dashTrackSource(engine.player as never, engine.streamInitialized);
        stop = bridgeTracks(video, source);
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [videoRef, engine, chromeReady]);

  const [counts, setCounts] = useState<MenuCounts>({ qualities: 0, audio: 0, subtitles: 0 });
  useEffect(() => {
    const video = videoRef.current as VideoWithLists | null;
    if (!video || !chromeReady) return;
    const count = () => setCounts(countMenus(video));
    count();
    const lists = [video.videoRenditions, video.audioTracks, video.textTracks as unknown as ListLike | undefined].filter((list): list is ListLike => typeof list?.addEventListener === 'function');
    for (const list of lists) for (const name of LIST_EVENTS) list.addEventListener(name, count);
    return () => {
      for (const list of lists) for (const name of LIST_EVENTS) list.removeEventListener(name, count);
    };
  }, [videoRef, chromeReady]);
  return counts;
}
