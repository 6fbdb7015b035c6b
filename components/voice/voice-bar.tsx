'use client';
/**
 * The voice bar: joins the room's call when it mounts (someone pressed "Join voice",
 * ./voice-entry.tsx), then shows "Leave voice (N)" with N the people in the call, mute, and each
 * person with their speaking light, per-person mute and volume, and why someone cannot be reached.
 * While someone speaks the movie's volume drops (on by default) and comes back after. The call
 * lives in a VoiceMesh (lib/voice/mesh.ts) fed by the room session's signalling frames; it ends when
 * the hall closes, and when the viewer loses the voice permission. Loaded only on first use.
 */
import { useEffect, useRef, useState } from 'react';
import { clsx } from 'clsx';
import { useAtomValue } from 'jotai';
import { Mic, MicOff, PhoneOff, Video, VideoOff, Volume2, VolumeX } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useT } from '@/lib/i18n';
import type { RoomSession } from '@/lib/room/session';
import { userAtom } from '@/lib/session';
import { loadIceServers } from '@/hooks/data/voice';
import { useDucking } from './use-ducking';
import { SPEAKING_LEVEL, VoiceMesh, type VoiceState } from '@/lib/voice/mesh';
import '@/lib/i18n/messages/cinema';
import '@/lib/i18n/messages/voice';

/** How often the speaking lights are read, ms. */
const LEVELS_EVERY_MS = 250;

const IDLE: VoiceState = { joined: false, joining: false, muted: false, level: 0, full: false, peers: [], failure: null, microphoneId: '', speakerId: '', camera: null, cameraFailure: null };

/** Below this width (a phone) the camera tiles start hidden; a toggle shows them. */
const PHONE_QUERY = '(max-width: 639px)';

/** Inputs that take no text, where the push-to-talk key still talks. */
const NOT_TEXT_INPUTS = new Set(['checkbox', 'radio', 'range', 'button', 'submit', 'reset', 'color']);

/** The key held to talk when push-to-talk is on (`KeyboardEvent.code`). */
export const PUSH_TO_TALK_CODE = 'KeyV';

/** Whether this browser can choose the audio output of a media element (`setSinkId`; not in Safari before 18, nor Firefox's default). */
const canChooseSpeaker = () => typeof HTMLMediaElement !== 'undefined' && 'setSinkId' in HTMLMediaElement.prototype;

export interface VoiceBarProps {
  session: RoomSession;
  canVoice: boolean;
  connected: boolean;
  video: HTMLVideoElement | null;
}

export default function VoiceBar({ session, canVoice, connected, video }: VoiceBarProps) {
  const t = useT();
  const me = useAtomValue(userAtom);
  const [state, setState] = useState<VoiceState>(IDLE);
  const [duck, setDuck] = useState(true);
  const [pushToTalk, setPushToTalk] = useState(false);
  const [devices, setDevices] = useState<MediaDeviceInfo[]>([]);
  const [switchFailed, setSwitchFailed] = useState(false);
  const [showCameras, setShowCameras] = useState(() => typeof window === 'undefined' || !window.matchMedia?.(PHONE_QUERY).matches);
  const [lost, setLost] = useState(false);
  const meshRef = useRef<VoiceMesh | null>(null);

  useEffect(() => {
    const mesh = new VoiceMesh({ send: (type, signal) => session.sendWebrtc(type, signal), onChange: setState });
    meshRef.current = mesh;
    const off = session.onVoice({ frame: (message) => mesh.handleFrame(message), socketOpen: () => mesh.onSocketOpen(), socketClose: () => mesh.onSocketClose() });
    void joinCall(mesh, session.roomId);
    return () => {
      off();
      mesh.close();
      meshRef.current = null;
    };
  }, [session]);

  // Losing the permission (MY_STATUS) ends the call: the server would refuse its frames.
  useEffect(() => {
    if (canVoice || !state.joined) return;
    meshRef.current?.leave();
    setLost(true);
  }, [canVoice, state.joined]);

  useEffect(() => {
    if (!state.joined) return;
    const timer = setInterval(() => void meshRef.current?.readLevels(), LEVELS_EVERY_MS);
    return () => clearInterval(timer);
  }, [state.joined]);

  // The devices, once the microphone is open (before that the browser gives no labels), and when one is plugged in or out.
  useEffect(() => {
    if (!state.joined || !navigator.mediaDevices?.enumerateDevices) return;
    const read = () => void navigator.mediaDevices.enumerateDevices().then(setDevices, () => undefined);
    read();
    navigator.mediaDevices.addEventListener?.('devicechange', read);
    return () => navigator.mediaDevices.removeEventListener?.('devicechange', read);
  }, [state.joined]);

  usePushToTalk(meshRef, state.joined && pushToTalk);

  const someoneSpeaks = state.peers.some((peer) => !peer.muted && peer.level >= SPEAKING_LEVEL);
  useDucking(video, duck && state.joined && someoneSpeaks);

  const count = state.joined ? new Set([me?.id ?? 'me', ...state.peers.map((peer) => peer.userId)]).size : 0;

  if (!state.joined) {
    return (
      <div className="space-y-1.5 border-b border-zinc-200 px-4 py-2 dark:border-zinc-800" data-testid="voice-bar">
        <Button
          data-testid="voice-join"
          variant="outline"
          size="sm"
          loading={state.joining}
          disabled={!connected || !canVoice}
          onClick={() => {
            setLost(false);
            if (meshRef.current) void joinCall(meshRef.current, session.roomId);
          }}
        >
          <Mic className="h-4 w-4" aria-hidden />
          {state.joining ? t('voice.joining') : t('cinema.voice.join')}
        </Button>
        {state.failure ? (
          <p role="alert" data-testid="voice-failure" data-failure={state.failure} className="text-xs text-red-600 dark:text-red-400">
            {t(`voice.failure.${state.failure}`)}
          </p>
        ) : null}
        {lost ? <p className="text-xs text-zinc-600 dark:text-zinc-400">{t('voice.lost')}</p> : null}
      </div>
    );
  }

  return (
    <section aria-label={t('voice.region')} data-testid="voice-bar" className="space-y-2 border-b border-zinc-200 px-4 py-2 dark:border-zinc-800">
      <div className="flex flex-wrap items-center gap-2">
        <Button data-testid="voice-leave" variant="outline" size="sm" onClick={() => meshRef.current?.leave()}>
          <PhoneOff className="h-4 w-4" aria-hidden />
          {t('voice.leave', { count })}
        </Button>
        <Button data-testid="voice-mute" variant="ghost" size="sm" aria-pressed={state.muted} onClick={() => meshRef.current?.setMuted(!state.muted)}>
          {state.muted ? <MicOff className="h-4 w-4" aria-hidden /> : <Mic className="h-4 w-4" aria-hidden />}
          {state.muted ? t('voice.unmute') : t('voice.mute')}
        </Button>
        <Button
          data-testid="voice-camera"
          variant="ghost"
          size="sm"
          aria-pressed={state.camera !== null}
          onClick={() => void meshRef.current?.setCamera(state.camera === null)}
        >
          {state.camera ? <Video className="h-4 w-4" aria-hidden /> : <VideoOff className="h-4 w-4" aria-hidden />}
          {t('voice.camera')}
        </Button>
      </div>
      {state.cameraFailure ? (
        <p role="alert" data-testid="voice-camera-failure" className="text-xs text-red-600 dark:text-red-400">
          {t(`voice.cameraFailure.${state.cameraFailure}`)}
        </p>
      ) : null}
      <CameraTiles
        show={showCameras}
        onShow={setShowCameras}
        tiles={[
          ...(state.camera ? [{ key: 'me', userId: me?.id ?? '', label: t('voice.me', { name: me?.username ?? '' }), stream: state.camera, self: true }] : []),
          ...state.peers.flatMap((peer) => (peer.video ? [{ key: peer.id, userId: peer.userId, label: peer.username, stream: peer.video, self: false }] : [])),
        ]}
      />
      <details className="text-xs text-zinc-700 dark:text-zinc-300" data-testid="voice-settings">
        <summary className="cursor-pointer select-none font-medium">{t('voice.settings')}</summary>
        <div className="mt-2 grid gap-2">
          <label className="flex items-center gap-1.5">
            <input type="checkbox" data-testid="voice-duck" checked={duck} onChange={(event) => setDuck(event.target.checked)} className="h-4 w-4 accent-brand-600" />
            {t('voice.duck')}
          </label>
          <label className="flex items-center gap-1.5">
            <input
              type="checkbox"
              data-testid="voice-push-to-talk"
              checked={pushToTalk}
              onChange={(event) => setPushToTalk(event.target.checked)}
              className="h-4 w-4 accent-brand-600"
            />
            {t('voice.pushToTalk')}
          </label>
          <DeviceSelect
            testId="voice-microphone"
            label={t('voice.microphone')}
            value={state.microphoneId}
            options={devices.filter((device) => device.kind === 'audioinput').map((device) => ({ value: device.deviceId, label: device.label || t('voice.unnamedMicrophone', { id: device.deviceId.slice(0, 8) }) }))}
            onChange={(deviceId) => {
              setSwitchFailed(false);
              void meshRef.current?.setMicrophone(deviceId).then((ok) => setSwitchFailed(!ok));
            }}
          />
          {switchFailed ? (
            <p role="alert" className="text-red-600 dark:text-red-400">
              {t('voice.switchFailed')}
            </p>
          ) : null}
          {canChooseSpeaker() ? (
            <DeviceSelect
              testId="voice-speaker"
              label={t('voice.speaker')}
              value={state.speakerId}
              options={[
                { value: '', label: t('voice.defaultSpeaker') },
                ...devices
                  .filter((device) => device.kind === 'audiooutput' && device.deviceId !== 'default')
                  .map((device) => ({ value: device.deviceId, label: device.label || t('voice.unnamedSpeaker', { id: device.deviceId.slice(0, 8) }) })),
              ]}
              onChange={(deviceId) => void meshRef.current?.setSpeaker(deviceId)}
            />
          ) : null}
        </div>
      </details>
      <ul className="flex flex-wrap gap-1.5 text-xs" data-testid="voice-people">
        <li data-testid="voice-person" data-me="true" data-speaking={!state.muted && state.level >= SPEAKING_LEVEL} className={personClasses(!state.muted && state.level >= SPEAKING_LEVEL)}>
          {state.muted ? <MicOff className="h-3.5 w-3.5" aria-hidden /> : <Mic className="h-3.5 w-3.5" aria-hidden />}
          {t('voice.me', { name: me?.username ?? '' })}
        </li>
        {state.peers.map((peer) => {
          const speaking = !peer.muted && peer.level >= SPEAKING_LEVEL;
          return (
            <li key={peer.id} data-testid="voice-person" data-user-id={peer.userId} data-state={peer.state} data-speaking={speaking} className={personClasses(speaking)}>
              <span>{peer.username}</span>
              {speaking ? <span className="sr-only">{t('voice.speaking')}</span> : null}
              {peer.state === 'failed' ? (
                <span className="text-red-600 dark:text-red-400">{t('voice.peerFailed')}</span>
              ) : peer.state !== 'connected' ? (
                <span className="text-zinc-500 dark:text-zinc-400">{t('voice.connecting')}</span>
              ) : null}
              <button
                type="button"
                data-testid="voice-person-mute"
                aria-pressed={peer.muted}
                aria-label={peer.muted ? t('voice.unmutePeer', { name: peer.username }) : t('voice.mutePeer', { name: peer.username })}
                onClick={() => meshRef.current?.setPeerAudio(peer.id, { muted: !peer.muted })}
                className="rounded p-0.5 hover:bg-zinc-200 focus-visible:outline-2 focus-visible:outline-brand-500 dark:hover:bg-zinc-700"
              >
                {peer.muted ? <VolumeX className="h-3.5 w-3.5" aria-hidden /> : <Volume2 className="h-3.5 w-3.5" aria-hidden />}
              </button>
              <input
                type="range"
                min={0}
                max={1}
                step={0.1}
                value={peer.volume}
                aria-label={t('voice.volume', { name: peer.username })}
                onChange={(event) => meshRef.current?.setPeerAudio(peer.id, { volume: Number(event.target.value) })}
                className="w-16 accent-brand-600"
              />
            </li>
          );
        })}
      </ul>
      {state.peers.length === 0 ? <p className="text-xs text-zinc-600 dark:text-zinc-400">{t('voice.alone')}</p> : null}
      {state.full ? <p className="text-xs text-amber-700 dark:text-amber-300">{t('voice.full')}</p> : null}
    </section>
  );
}

interface Tile {
  key: string;
  userId: string;
  label: string;
  stream: MediaStream;
  /** The own camera: mirrored, as people expect to see themselves. */
  self: boolean;
}

/** The cameras that are on, as small tiles; on a phone they start hidden behind "Show cameras". */
function CameraTiles({ tiles, show, onShow }: { tiles: Tile[]; show: boolean; onShow: (show: boolean) => void }) {
  const t = useT();
  if (tiles.length === 0) return null;
  return (
    <div className="space-y-1.5">
      <button
        type="button"
        data-testid="voice-show-cameras"
        aria-expanded={show}
        onClick={() => onShow(!show)}
        className="text-xs font-medium text-brand-700 underline underline-offset-2 dark:text-brand-300"
      >
        {show ? t('voice.hideCameras') : t('voice.showCameras', { count: tiles.length })}
      </button>
      {show ? (
        <ul className="grid grid-cols-2 gap-1.5 sm:grid-cols-3" aria-label={t('voice.cameras')}>
          {tiles.map((tile) => (
            <li key={tile.key} className="relative overflow-hidden rounded-lg bg-black">
              <VideoTile stream={tile.stream} userId={tile.userId} self={tile.self} label={tile.label} />
              <span className="absolute bottom-0.5 left-1 max-w-[90%] truncate rounded bg-black/60 px-1 text-[11px] text-white">{tile.label}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function VideoTile({ stream, userId, self, label }: { stream: MediaStream; userId: string; self: boolean; label: string }) {
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const video = ref.current;
    if (!video) return;
    video.srcObject = stream;
    void video.play().catch(() => undefined);
    return () => {
      video.srcObject = null;
    };
  }, [stream]);
  return (
    <video
      ref={ref}
      data-testid="voice-video"
      data-user-id={userId}
      data-self={self || undefined}
      aria-label={label}
      autoPlay
      muted
      playsInline
      className={clsx('aspect-[4/3] w-full object-cover', self && '-scale-x-100')}
    />
  );
}

function DeviceSelect({ testId, label, value, options, onChange }: { testId: string; label: string; value: string; options: { value: string; label: string }[]; onChange: (value: string) => void }) {
  if (options.length === 0) return null;
  return (
    <label className="flex min-w-0 items-center gap-2">
      <span className="shrink-0">{label}</span>
      <select
        data-testid={testId}
        value={options.some((option) => option.value === value) ? value : options[0].value}
        onChange={(event) => onChange(event.target.value)}
        className="min-w-0 flex-1 truncate rounded-md border border-zinc-300 bg-white px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900"
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * Push-to-talk: while `active`, the microphone is muted except while PUSH_TO_TALK_CODE is held
 * (not while typing in a field); turning it off leaves the microphone open.
 */
function usePushToTalk(meshRef: React.RefObject<VoiceMesh | null>, active: boolean): void {
  useEffect(() => {
    const mesh = meshRef.current;
    if (!active || !mesh) return;
    mesh.setMuted(true);
    // Typing a V into the chat (or any text field) is not talking; a focused checkbox or button is no field.
    const typing = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (target instanceof HTMLInputElement) return !NOT_TEXT_INPUTS.has(target.type);
      return Boolean(target?.closest('textarea, select, [contenteditable="true"]'));
    };
    const down = (event: KeyboardEvent) => {
      if (event.code !== PUSH_TO_TALK_CODE || event.repeat || typing(event)) return;
      mesh.setMuted(false);
    };
    const up = (event: KeyboardEvent) => {
      if (event.code === PUSH_TO_TALK_CODE) mesh.setMuted(true);
    };
    const release = () => mesh.setMuted(true);
    window.addEventListener('keydown', down);
    window.addEventListener('keyup', up);
    window.addEventListener('blur', release);
    return () => {
      window.removeEventListener('keydown', down);
      window.removeEventListener('keyup', up);
      window.removeEventListener('blur', release);
      mesh.setMuted(false);
    };
  }, [meshRef, active]);
}

/** Joins with the room's ICE servers (the companion server's TURN credentials are per user and expire). */
async function joinCall(mesh: VoiceMesh, roomId: string): Promise<void> {
  mesh.setIceServers(await loadIceServers(roomId));
  await mesh.join();
}

function personClasses(speaking: boolean): string {
  return clsx(
    'flex items-center gap-1 rounded-full border px-2 py-0.5',
    speaking ? 'border-emerald-500 bg-emerald-50 ring-2 ring-emerald-500/60 dark:bg-emerald-950' : 'border-zinc-300 dark:border-zinc-700',
  );
}
