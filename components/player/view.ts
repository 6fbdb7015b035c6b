/**
 * How this viewer looks at the picture, none of which reaches the room: the aspect ratio, a flip,
 * the subtitles' offset, web fullscreen (the player filling the window, not the screen) and the
 * touch lock. The reference client's Artplayer has the same controls (docs/reference-client.md §5); the
 * menus and buttons that change them load with the player's controls (./view-controls.tsx).
 */
import type { CSSProperties } from 'react';

/** `auto`: the picture's own shape; otherwise the picture is stretched to this shape. */
export type AspectRatio = 'auto' | '16:9' | '4:3';
export type Flip = 'none' | 'horizontal' | 'vertical';

export interface PlayerView {
  aspect: AspectRatio;
  flip: Flip;
  /** Seconds the subtitles are shown later than their file says (negative: earlier). */
  subtitleOffsetSec: number;
  /** The player fills the browser window (not the screen, unlike fullscreen). */
  webFullscreen: boolean;
  /** Touch controls are locked: the control bar is hidden and taps do nothing but offer the unlock. */
  locked: boolean;
}

export const DEFAULT_VIEW: PlayerView = { aspect: 'auto', flip: 'none', subtitleOffsetSec: 0, webFullscreen: false, locked: false };

/** The aspect ratios offered, as width / height. */
export const ASPECT_RATIOS: Record<Exclude<AspectRatio, 'auto'>, number> = { '16:9': 16 / 9, '4:3': 4 / 3 };

/** The subtitle offsets offered (s), as in the reference client's ±5 s range. */
export const SUBTITLE_OFFSETS = [-5, -3, -2, -1, -0.5, 0, 0.5, 1, 2, 3, 5] as const;

/** The playback rates offered: 0.5× to 5×, as in the reference client. */
export const PLAYBACK_RATES = '0.5 0.75 1 1.25 1.5 1.75 2 3 4 5';

/**
 * The <video>'s style for a view: for a forced aspect ratio, the largest box of that shape centred
 * in the player (container query units of the controller, which is a size container), the picture
 * stretched to it; a flip mirrors it. Undefined when nothing changes.
 */
export function videoStyle(view: Pick<PlayerView, 'aspect' | 'flip'>): CSSProperties | undefined {
  const style: CSSProperties = {};
  if (view.aspect !== 'auto') {
    const ratio = ASPECT_RATIOS[view.aspect];
    Object.assign(style, {
      position: 'absolute',
      inset: 0,
      margin: 'auto',
      width: `min(100cqw, ${ratio} * 100cqh)`,
      height: `min(100cqh, 100cqw / ${ratio})`,
      objectFit: 'fill',
    });
  }
  if (view.flip !== 'none') style.transform = view.flip === 'horizontal' ? 'scaleX(-1)' : 'scaleY(-1)';
  return Object.keys(style).length ? style : undefined;
}
