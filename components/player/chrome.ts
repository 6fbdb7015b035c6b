/**
 * The player's control layer, downloaded after the movie's first frame (components/player/player.tsx
 * imports it then, or at once when the viewer reaches for the controls): defines media-chrome's
 * custom elements (controller, control bar, buttons, ranges, the settings menu with quality, audio,
 * captions and speed), its Chinese labels, and media-tracks' polyfill of `videoRenditions` and
 * `audioTracks` on HTMLMediaElement, which the quality and audio menus read.
 *
 * Why media-chrome: it is a set of standard custom elements over the page's own <video>, so the
 * engines we already drive (hls.js light/full, mpegts.js, dash.js) and the sync engine keep the
 * element as it is; Vidstack wants to own the source loading. See docs/features.md "The player".
 *
 * The bridges of ./tracks.ts (re-exported here, so they load with the menus that use them) publish an
 * engine's qualities and audio tracks on the element and apply the viewer's choice back.
 */
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
import 'media-chrome/menu/media-chrome-menu.js';
import 'media-chrome/menu/media-chrome-menu-item.js';
import 'media-chrome/menu/media-settings-menu.js';
import 'media-chrome/menu/media-settings-menu-item.js';
import 'media-chrome/menu/media-settings-menu-button.js';
import 'media-chrome/menu/media-rendition-menu.js';
import 'media-chrome/menu/media-audio-track-menu.js';
import 'media-chrome/menu/media-captions-menu.js';
import 'media-chrome/lang/zh-CN.js';
import { defineRoomRateMenu } from './room-rate-menu';

// The speed menu, showing the room's rate while the sync engine nudges the element's.
defineRoomRateMenu();

export { bridgeTracks, dashTrackSource, hlsTrackSource } from './tracks';
export type { AudioOption, DashPlayerLike, QualityOption, TrackSource } from './tracks';
