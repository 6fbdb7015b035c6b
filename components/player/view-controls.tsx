'use client';
/**
 * The controls of this viewer's own view of the picture (./view.ts), downloaded with the player's
 * controls after the first frame: in the settings menu, the aspect ratio, a flip and the subtitles'
 * offset (media-chrome radio menus); in the control bar, a danmaku input (sent as chat, so it also
 * works in fullscreen) and web fullscreen; a thin progress line while the controls are hidden; on
 * touch screens, the lock, a long press that plays at 3× while held, and fullscreen turned to
 * landscape for a wide picture (docs/reference-client.md §5: Artplayer's danmaku input, miniProgressBar,
 * lock, fastForward and autoOrientation). A long press changes the room's speed like the speed menu
 * does, so it is offered only to viewers who may control playback, and never for a live stream.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { AppWindow, FastForward, Lock, LockOpen, SendHorizontal } from 'lucide-react';
import { byteLength, MAX_CHAT_BYTES } from '@/lib/contract/validation';
import { useT } from '@/lib/i18n';
import { SUBTITLE_OFFSETS, type AspectRatio, type Flip, type PlayerView } from './view';
import '@/lib/i18n/messages/player';

/** Changes part of the view. */
export type ViewChange = (patch: Partial<PlayerView>) => void;

/** How long (ms) a touch must be held before fast-forward starts, and the rate it plays at (Artplayer's defaults). */
export const FAST_FORWARD_DELAY_MS = 1000;
export const FAST_FORWARD_RATE = 3;

interface ChoiceMenuProps<T extends string> {
  label: string;
  testId: string;
  value: T;
  options: Array<{ value: T; label: string }>;
  onChange: (value: T) => void;
}

/** One settings-menu entry with a radio submenu (media-chrome keeps the keyboard and the checked item). */
function ChoiceMenu<T extends string>({ label, testId, value, options, onChange }: ChoiceMenuProps<T>) {
  const menu = useRef<HTMLElement & { value?: string }>(null);
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  });
  useEffect(() => {
    const element = menu.current;
    if (!element) return;
    const listener = () => {
      const picked = options.find((option) => option.value === element.value);
      if (picked) onChangeRef.current(picked.value);
    };
    element.addEventListener('change', listener);
    return () => element.removeEventListener('change', listener);
  }, [options]);
  return (
    <media-settings-menu-item data-testid={testId}>
      {label}
      <media-chrome-menu ref={menu} slot="submenu" hidden data-testid={`${testId}-menu`}>
        <div slot="title">{label}</div>
        {options.map((option) => (
          <media-chrome-menu-item key={option.value} type="radio" value={option.value} aria-checked={option.value === value ? 'true' : 'false'}>
            {option.label}
          </media-chrome-menu-item>
        ))}
      </media-chrome-menu>
    </media-settings-menu-item>
  );
}

/** A subtitle offset as the menu shows it: `+0.5 s`, `−2 s`, `0`. */
function offsetLabel(seconds: number, unit: string): string {
  if (seconds === 0) return '0';
  return `${seconds > 0 ? '+' : '−'}${Math.abs(seconds)} ${unit}`;
}

export interface ViewMenusProps {
  view: PlayerView;
  onView: ViewChange;
  /** The movie has subtitles of its own: the offset entry is shown. */
  hasSubtitles: boolean;
}

/** The settings menu's entries for the view: aspect ratio, flip, and the subtitle offset when there are subtitles. */
export function ViewMenus({ view, onView, hasSubtitles }: ViewMenusProps) {
  const t = useT();
  const aspects: Array<{ value: AspectRatio; label: string }> = [
    { value: 'auto', label: t('player.view.aspectAuto') },
    { value: '16:9', label: '16:9' },
    { value: '4:3', label: '4:3' },
  ];
  const flips: Array<{ value: Flip; label: string }> = [
    { value: 'none', label: t('player.view.flipNone') },
    { value: 'horizontal', label: t('player.view.flipHorizontal') },
    { value: 'vertical', label: t('player.view.flipVertical') },
  ];
  const offsets = SUBTITLE_OFFSETS.map((seconds) => ({ value: String(seconds), label: offsetLabel(seconds, t('player.view.seconds')) }));
  return (
    <>
      <ChoiceMenu label={t('player.view.aspect')} testId="player-aspect" value={view.aspect} options={aspects} onChange={(aspect) => onView({ aspect })} />
      <ChoiceMenu label={t('player.view.flip')} testId="player-flip" value={view.flip} options={flips} onChange={(flip) => onView({ flip })} />
      {hasSubtitles ? (
        <ChoiceMenu
          label={t('player.view.subtitleOffset')}
          testId="player-subtitle-offset"
          value={String(view.subtitleOffsetSec)}
          options={offsets}
          onChange={(seconds) => onView({ subtitleOffsetSec: Number(seconds) })}
        />
      ) : null}
    </>
  );
}

export interface ViewBarButtonsProps {
  view: PlayerView;
  onView: ViewChange;
}

/** The control bar's web fullscreen button (theater mode is the info bar's button and `t`). */
export function ViewBarButtons({ view, onView }: ViewBarButtonsProps) {
  const t = useT();
  const webLabel = view.webFullscreen ? t('player.view.webFullscreenOff') : t('player.view.webFullscreenOn');
  return (
    <>
      <button
        type="button"
        className="player-button"
        data-testid="player-web-fullscreen"
        aria-pressed={view.webFullscreen}
        aria-label={webLabel}
        title={webLabel}
        onClick={() => onView({ webFullscreen: !view.webFullscreen })}
      >
        <AppWindow aria-hidden />
      </button>
    </>
  );
}

export interface TouchControlsProps {
  view: PlayerView;
  onView: ViewChange;
  video: HTMLVideoElement | null;
  controller: HTMLElement | null;
  /** The viewer may change the room's speed (and the movie is not live): a long press fast-forwards. */
  canFastForward: boolean;
}

/**
 * On touch screens: the lock button in the middle of the left edge (a direct child of the
 * controller, so that it stays while the locked control bar is hidden) and the long press. Hidden on
 * screens with a fine pointer by CSS (`.touch-only` in app/globals.css).
 */
export function TouchControls({ view, onView, video, controller, canFastForward }: TouchControlsProps) {
  const t = useT();
  const [fastForward, setFastForward] = useState(false);

  useEffect(() => {
    if (!controller || !video || !canFastForward || view.locked) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let restoreRate: number | null = null;
    const start = (event: PointerEvent) => {
      if (event.pointerType !== 'touch' || (event.target as Element).closest('media-control-bar, button, [role="menu"]')) return;
      timer = setTimeout(() => {
        restoreRate = video.playbackRate;
        video.playbackRate = FAST_FORWARD_RATE;
        setFastForward(true);
      }, FAST_FORWARD_DELAY_MS);
    };
    const end = () => {
      clearTimeout(timer);
      if (restoreRate === null) return;
      video.playbackRate = restoreRate;
      restoreRate = null;
      setFastForward(false);
    };
    controller.addEventListener('pointerdown', start);
    for (const name of ['pointerup', 'pointercancel', 'pointerleave'] as const) controller.addEventListener(name, end);
    return () => {
      end();
      controller.removeEventListener('pointerdown', start);
      for (const name of ['pointerup', 'pointercancel', 'pointerleave'] as const) controller.removeEventListener(name, end);
    };
  }, [controller, video, canFastForward, view.locked]);

  // Fullscreen on a phone held upright turns a wide picture sideways (where the browser allows it).
  useEffect(() => {
    if (!controller || !video) return;
    const orientation = screen.orientation as ScreenOrientation & { lock?: (to: string) => Promise<void> };
    const onFullscreen = () => {
      if (document.fullscreenElement && video.videoWidth > video.videoHeight) orientation.lock?.('landscape').catch(() => undefined);
      else if (!document.fullscreenElement) orientation.unlock?.();
    };
    document.addEventListener('fullscreenchange', onFullscreen);
    return () => document.removeEventListener('fullscreenchange', onFullscreen);
  }, [controller, video]);

  const lockLabel = view.locked ? t('player.view.unlock') : t('player.view.lock');
  return (
    <>
      <div slot="middle-chrome" className="touch-only flex h-full items-center pl-2">
        <button type="button" className="player-button rounded-full" data-testid="player-lock" aria-pressed={view.locked} aria-label={lockLabel} title={lockLabel} onClick={() => onView({ locked: !view.locked })}>
          {view.locked ? <Lock aria-hidden /> : <LockOpen aria-hidden />}
        </button>
      </div>
      {fastForward ? (
        <div slot="top-chrome" {...{ noautohide: '' }} role="status" data-testid="player-fast-forward" className="flex w-full justify-center pt-3">
          <span className="inline-flex items-center gap-1 rounded-full bg-black/70 px-3 py-1 text-sm text-white">
            <FastForward className="h-4 w-4" aria-hidden />
            {t('player.view.fastForward', { rate: FAST_FORWARD_RATE })}
          </span>
        </div>
      ) : null}
    </>
  );
}

/** Keys media-chrome leaves to the danmaku input while it has the focus (its `keysused`). */
const TYPING_KEYS = 'ArrowLeft ArrowRight ArrowUp ArrowDown Enter Space f m k c l j > < p t';

export interface DanmakuInputProps {
  /** Sends one line as chat (false when it could not be sent: not connected). */
  onSend: (text: string) => boolean;
}

/** A line typed in the control bar flies as danmaku for everyone (it is sent as a chat line). */
export function DanmakuInput({ onSend }: DanmakuInputProps) {
  const t = useT();
  const [text, setText] = useState('');
  const tooLong = byteLength(text) > MAX_CHAT_BYTES;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const line = text.trim();
    if (!line || tooLong) return;
    if (onSend(line)) setText('');
  };
  return (
    <form onSubmit={submit} className="hidden min-w-0 items-center sm:flex" data-testid="player-danmaku-form">
      <input
        type="text"
        value={text}
        onChange={(event) => setText(event.target.value)}
        keysused={TYPING_KEYS}
        data-testid="player-danmaku-input"
        aria-label={t('player.danmaku.send')}
        aria-invalid={tooLong || undefined}
        placeholder={t('player.danmaku.placeholder')}
        className="h-8 w-36 rounded-l-md border-0 bg-black/60 px-2 text-sm text-white placeholder:text-zinc-300 focus:outline-2 focus:outline-brand-400 md:w-48"
      />
      <button type="submit" className="player-button h-8 rounded-r-md p-1.5" aria-label={t('player.danmaku.send')} title={t('player.danmaku.send')}>
        <SendHorizontal aria-hidden />
      </button>
    </form>
  );
}

/**
 * The thin progress line along the picture's bottom edge, shown while media-chrome has hidden the
 * controls of a playing video (app/globals.css `.player-mini-progress`).
 */
export function MiniProgress({ video }: { video: HTMLVideoElement | null }) {
  const bar = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!video) return;
    const update = () => {
      const fraction = video.duration > 0 && Number.isFinite(video.duration) ? video.currentTime / video.duration : 0;
      if (bar.current) bar.current.style.transform = `scaleX(${Math.min(1, Math.max(0, fraction))})`;
    };
    update();
    for (const name of ['timeupdate', 'durationchange', 'seeked'] as const) video.addEventListener(name, update);
    return () => {
      for (const name of ['timeupdate', 'durationchange', 'seeked'] as const) video.removeEventListener(name, update);
    };
  }, [video]);
  return (
    <div slot="centered-chrome" {...{ noautohide: '' }} aria-hidden className="player-mini-progress pointer-events-none absolute inset-x-0 bottom-0 h-0.5 bg-white/20">
      <div ref={bar} className="h-full origin-left bg-brand-400 transition-transform duration-300 ease-linear" style={{ transform: 'scaleX(0)' }} />
    </div>
  );
}
