'use client';
/**
 * The player's controls once media-chrome's elements are defined (./chrome.ts, loaded by
 * ./use-chrome.ts): the spinner, the settings menu (speed, quality, audio, subtitles, the view's
 * menus), the control bar and the touch controls. Every control acts on the element itself, so the
 * sync engine tells a person's action from its own (docs/player.md "Controls").
 */
import { lazy, Suspense } from 'react';
import { useT } from '@/lib/i18n';
import { PLAYBACK_RATES, type PlayerView } from '@/components/player/view';
import { NO_RANGE_REASON_ID, WATCH_ONLY_REASON_ID } from './ids';
import type { MenuCounts } from './use-track-menus';
import '@/lib/i18n/messages/player';

/** The view's menus and buttons (aspect ratio, flip, subtitle offset, web fullscreen, touch). */
const ViewMenus = lazy(() => import('@/components/player/view-controls').then((module) => ({ default: module.ViewMenus })));
const ViewBarButtons = lazy(() => import('@/components/player/view-controls').then((module) => ({ default: module.ViewBarButtons })));
const TouchControls = lazy(() => import('@/components/player/view-controls').then((module) => ({ default: module.TouchControls })));
const DanmakuInput = lazy(() => import('@/components/player/view-controls').then((module) => ({ default: module.DanmakuInput })));
const MiniProgress = lazy(() => import('@/components/player/view-controls').then((module) => ({ default: module.MiniProgress })));
const CueLift = lazy(() => import('@/components/player/use-cue-lift').then((module) => ({ default: module.CueLift })));

/** Keys media-chrome must ignore for a viewer without playback control (play, pause, seek). */
const WATCH_ONLY_HOTKEYS = 'nospace nok noarrowleft noarrowright noj nol no< no> noc';
/** `c` is the hall's chat shortcut here, not captions. */
const HOTKEYS = 'noc';
/** Keys media-chrome must ignore where the source cannot seek. */
const NO_SEEK_HOTKEYS = 'noarrowleft noarrowright noj nol';

/** The media-controller's `hotkeys` (the keys it must ignore): `control` whether the viewer may play, pause and seek now, `cannotSeek` whether the source can seek. */
export function controllerHotkeys(control: boolean, cannotSeek: boolean): string {
  if (!control) return WATCH_ONLY_HOTKEYS;
  return cannotSeek ? `${HOTKEYS} ${NO_SEEK_HOTKEYS}` : HOTKEYS;
}

export interface PlayerControlsProps {
  /** The settings menu's id, which its button opens. */
  menuId: string;
  /** Whether the viewer may play, pause and seek (else those are disabled with the reason). */
  canControl: boolean;
  live: boolean;
  /** The source cannot seek (a host without HTTP Range): the seek bar is disabled with the reason. */
  cannotSeek: boolean;
  menuCounts: MenuCounts;
  view: PlayerView;
  onView: (patch: Partial<PlayerView>) => void;
  hasSubtitles: boolean;
  /** Sends a line typed in the bar as chat; absent for a viewer who may not chat. */
  onSendDanmaku?: (text: string) => boolean;
  video: HTMLVideoElement | null;
  controller: HTMLElement | null;
}

export function PlayerControls({ menuId, canControl, live, cannotSeek, menuCounts, view, onView, hasSubtitles, onSendDanmaku, video, controller }: PlayerControlsProps) {
  const t = useT();
  const controlDisabled = !canControl;
  const seekDisabled = controlDisabled || cannotSeek;
  return (
    <>
      <media-loading-indicator slot="centered-chrome" noautohide>
        {/* Our own spinner: media-chrome's keeps the page redrawing while hidden (app/globals.css `.player-spinner`). */}
        <svg slot="icon" className="player-spinner" viewBox="0 0 24 24" aria-hidden>
          <path d="M21 12a9 9 0 1 1-6.219-8.56" />
        </svg>
      </media-loading-indicator>
      <media-settings-menu id={menuId} hidden anchor="auto">
        {canControl && !live ? (
          <media-settings-menu-item>
            {t('player.menu.speed')}
            <synctv-playback-rate-menu slot="submenu" hidden rates={PLAYBACK_RATES} data-testid="player-speed-menu">
              <div slot="title">{t('player.menu.speed')}</div>
            </synctv-playback-rate-menu>
          </media-settings-menu-item>
        ) : null}
        {(
          [
            ['quality', 'media-rendition-menu', menuCounts.qualities > 1],
            ['audio', 'media-audio-track-menu', menuCounts.audio > 1],
            ['subtitles', 'media-captions-menu', menuCounts.subtitles > 0],
          ] as const
        ).map(([name, Menu, shown]) => (
          // Menus with nothing to choose are left out (as the reference client hides a control with ≤ 1 option).
          <media-settings-menu-item key={name} hidden={!shown || undefined}>
            {t(`player.menu.${name}`)}
            <Menu slot="submenu" hidden>
              <div slot="title">{t(`player.menu.${name}`)}</div>
            </Menu>
          </media-settings-menu-item>
        ))}
        <Suspense fallback={null}>
          <ViewMenus view={view} onView={onView} hasSubtitles={hasSubtitles} />
        </Suspense>
      </media-settings-menu>
      <media-control-bar class="w-full" data-testid="player-controls" hidden={view.locked || undefined}>
        <media-play-button data-testid={canControl ? 'player-play' : 'watch-only-play'} disabled={controlDisabled || undefined} aria-disabled={controlDisabled ? 'true' : undefined} aria-describedby={controlDisabled ? WATCH_ONLY_REASON_ID : undefined} />
        {live ? (
          <media-live-button disabled={controlDisabled || undefined} />
        ) : (
          <media-time-range
            class="min-w-0 flex-1"
            disabled={seekDisabled || undefined}
            aria-disabled={seekDisabled ? 'true' : undefined}
            aria-describedby={controlDisabled ? WATCH_ONLY_REASON_ID : cannotSeek ? NO_RANGE_REASON_ID : undefined}
            data-testid="player-seek"
          />
        )}
        {live ? <span className="flex-1" /> : <media-time-display showduration notoggle class="hidden sm:flex" />}
        {onSendDanmaku ? (
          <Suspense fallback={null}>
            <DanmakuInput onSend={onSendDanmaku} />
          </Suspense>
        ) : null}
        <media-mute-button data-testid="player-mute" />
        <media-volume-range class="hidden sm:flex" />
        <media-settings-menu-button invoketarget={menuId} data-testid="player-settings" />
        <Suspense fallback={null}>
          <ViewBarButtons view={view} onView={onView} />
        </Suspense>
        <media-pip-button />
        <media-fullscreen-button data-testid="player-fullscreen" />
      </media-control-bar>
      <Suspense fallback={null}>
        <TouchControls view={view} onView={onView} video={video} controller={controller} canFastForward={canControl && !live && !cannotSeek} />
        {/* Legible subtitles, above this bar while it shows. */}
        <CueLift video={video} controller={controller} hasBar={!view.locked} />
        {live ? null : <MiniProgress video={video} />}
      </Suspense>
    </>
  );
}
