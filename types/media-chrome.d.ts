/**
 * JSX types for the media-chrome custom elements the player renders (components/player). The
 * elements are rendered as plain tags and defined later by components/player/chrome.ts (downloaded
 * after the first frame), so the hall does not import media-chrome's React wrappers.
 */
import type { DetailedHTMLProps, HTMLAttributes } from 'react';

type MediaElementProps = DetailedHTMLProps<HTMLAttributes<HTMLElement>, HTMLElement> & {
  class?: string;
  slot?: string;
  disabled?: boolean;
  hotkeys?: string;
  nohotkeys?: boolean;
  gesturesdisabled?: boolean;
  autohide?: string | number;
  noautohide?: boolean;
  lang?: string;
  showduration?: boolean;
  notoggle?: boolean;
  rates?: string;
  hidden?: boolean;
  invoketarget?: string;
  commandfor?: string;
  anchor?: string;
  breakpoints?: string;
  defaultstreamtype?: string;
  /** media-chrome-menu-item: `radio` or `checkbox`, and its value. */
  type?: string;
  value?: string;
  [attribute: `data-${string}`]: string | undefined;
};

declare module 'react' {
  // media-chrome reads `keysused` on a focused element: the keys it must leave to it (the danmaku input).
  // An augmentation repeats the interface's type parameter, used or not.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface InputHTMLAttributes<T> {
    keysused?: string;
  }
  namespace JSX {
    interface IntrinsicElements {
      'media-controller': MediaElementProps;
      'media-control-bar': MediaElementProps;
      'media-play-button': MediaElementProps;
      'media-time-range': MediaElementProps;
      'media-time-display': MediaElementProps;
      'media-mute-button': MediaElementProps;
      'media-volume-range': MediaElementProps;
      'media-pip-button': MediaElementProps;
      'media-fullscreen-button': MediaElementProps;
      'media-loading-indicator': MediaElementProps;
      'media-live-button': MediaElementProps;
      'media-settings-menu': MediaElementProps;
      'media-settings-menu-button': MediaElementProps;
      'media-settings-menu-item': MediaElementProps;
      'media-rendition-menu': MediaElementProps;
      'media-audio-track-menu': MediaElementProps;
      'media-captions-menu': MediaElementProps;
      /** media-chrome's speed menu showing the room's rate (components/player/room-rate-menu.ts). */
      'synctv-playback-rate-menu': MediaElementProps;
      'media-chrome-menu': MediaElementProps;
      'media-chrome-menu-item': MediaElementProps;
    }
  }
}
