/**
 * Voice chat in a room: a WebRTC mesh over the room socket's signalling, framework-free
 * (docs/voice.md; the frames are docs/contract.md §6.4).
 *
 * Signalling as SyncTV v0.9.11 and its web client do it, so that both clients talk to each other:
 * - joining sends WEBRTC_JOIN; the server tells every connection already in the call, with `from`
 *   set to the joiner's `userId:connId`;
 * - whoever receives a JOIN makes the offer (WEBRTC_OFFER to `from`); the joiner answers
 *   (WEBRTC_ANSWER); both trickle their ICE candidates (WEBRTC_ICE_CANDIDATE). `webrtc_data.data` is
 *   the JSON of the RTCSessionDescription or of the RTCIceCandidate;
 * - leaving sends WEBRTC_LEAVE; a connection that closes while in the call makes the server send
 *   one for it.
 * Only the receiver of a JOIN offers, so two offers never cross. One RTCPeerConnection per remote
 * connection, at most MAX_VOICE_PEERS (a mesh: every speaker sends to every other).
 *
 * The socket dropping ends every peer connection (the server has told the others that this
 * connection left); when it opens again a call that was on joins again by itself.
 */
import { MessageType, type Message } from '@/lib/contract/message-type';
import type { MessageType as ProtoMessageType } from '@/lib/proto/message';

/** The signalling frames of voice chat. */
export type VoiceFrameType =
  | ProtoMessageType.WEBRTC_JOIN
  | ProtoMessageType.WEBRTC_LEAVE
  | ProtoMessageType.WEBRTC_OFFER
  | ProtoMessageType.WEBRTC_ANSWER
  | ProtoMessageType.WEBRTC_ICE_CANDIDATE;

/** `webrtc_data` of an outgoing OFFER, ANSWER or ICE_CANDIDATE: `data` is JSON, `to` is `userId:connId`. */
export interface VoiceSignal {
  data: string;
  to: string;
}

/** Sends one signalling frame over the room socket; false when the socket is not open. */
export type SendVoiceFrame = (type: VoiceFrameType, signal?: VoiceSignal) => boolean;

/** Remote connections one person talks with at most: eight people in a call. */
export const MAX_VOICE_PEERS = 7;

/** A remote camera whose frame count has not grown for this long (ms) is taken as off. */
export const VIDEO_STALE_MS = 1500;
/** Audio level (0–1, as WebRTC stats report it) from which a person counts as speaking. */
export const SPEAKING_LEVEL = 0.02;

/** Candidates kept for a connection not yet known (they may come before its offer), and for how many connections. */
const EARLY_CANDIDATES_PER_PEER = 64;
const EARLY_CANDIDATE_PEERS = 16;

/** The ICE servers of the reference client, used when nothing else is configured (docs/voice.md). */
export const DEFAULT_ICE_SERVERS: RTCIceServer[] = [{ urls: 'stun:stun.l.google.com:19302' }];

/** Why joining failed: the page is not a secure origin, the microphone was refused, there is none, it is in use, or something else. */
export type VoiceFailure = 'insecure' | 'denied' | 'no-device' | 'busy' | 'failed';

/**
 * One remote connection in the call. `id` is its `userId:connId`; `level` is its audio level, 0–1;
 * `video` its camera while frames come (null when it has none on).
 */
export interface VoicePeer {
  id: string;
  userId: string;
  username: string;
  state: RTCPeerConnectionState;
  muted: boolean;
  volume: number;
  level: number;
  video: MediaStream | null;
}

/** What the voice bar shows. `level` is the local microphone's audio level (0–1) while joined. */
export interface VoiceState {
  joined: boolean;
  joining: boolean;
  muted: boolean;
  level: number;
  /** The call has more people than MAX_VOICE_PEERS + 1: some are not connected to this page. */
  full: boolean;
  peers: VoicePeer[];
  failure: VoiceFailure | null;
  /** The microphone in use (its deviceId; "" before joining) and the chosen output ("" = default). */
  microphoneId: string;
  speakerId: string;
  /** The own camera while it is on (shown as a preview), and why it could not be turned on. */
  camera: MediaStream | null;
  cameraFailure: VoiceFailure | null;
}

/** What the mesh needs of the browser (tests pass fakes). */
export interface VoiceEnvironment {
  getUserMedia(constraints: MediaStreamConstraints): Promise<MediaStream>;
  createPeerConnection(configuration: RTCConfiguration): RTCPeerConnection;
  /** Plays a remote stream; returns the element's controls (volume 0–1, output device, stop). */
  playStream(stream: MediaStream): StreamPlayer;
  /** False on an insecure origin (http:// other than localhost), where browsers offer no microphone. */
  secure: boolean;
}

/** A remote stream playing: its volume (0–1), its output device where the browser can choose one, stop. */
export interface StreamPlayer {
  setVolume(volume: number): void;
  /** Plays through the audio output `deviceId` ("" = the default); rejects where that fails. */
  setSinkId?(deviceId: string): Promise<void>;
  stop(): void;
}

export interface VoiceMeshOptions {
  send: SendVoiceFrame;
  /** Local clock, ms. Default `Date.now`. */
  now?: () => number;
  iceServers?: RTCIceServer[];
  onChange: (state: VoiceState) => void;
  environment?: VoiceEnvironment;
}

/** Camera settings: small tiles beside the film need no more than 320×240 at 15 fps (and a mesh sends it to everyone). */
export const CAMERA_CONSTRAINTS: MediaStreamConstraints = {
  audio: false,
  video: { width: { ideal: 320 }, height: { ideal: 240 }, frameRate: { ideal: 15 } },
};

/** Microphone settings: echo cancellation and noise suppression on, so the film and the room do not echo. */
export const MICROPHONE_CONSTRAINTS: MediaStreamConstraints = {
  audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true },
  video: false,
};

/** MICROPHONE_CONSTRAINTS for the device `deviceId` ("" = the browser's choice). */
function microphoneConstraints(deviceId: string): MediaStreamConstraints {
  const audio = MICROPHONE_CONSTRAINTS.audio as MediaTrackConstraints;
  return { ...MICROPHONE_CONSTRAINTS, audio: deviceId ? { ...audio, deviceId: { exact: deviceId } } : audio };
}

interface Peer {
  id: string;
  userId: string;
  username: string;
  connection: RTCPeerConnection;
  /** Candidates that came before the remote description, added once it is set. */
  pendingCandidates: RTCIceCandidateInit[];
  /** Own candidates found before the offer or answer went out, sent right after it. */
  unsentCandidates: string[] | null;
  player: StreamPlayer | null;
  /** The remote camera track and its stream; the track is muted while no frames come. */
  video: { stream: MediaStream; track: MediaStreamTrack } | null;
  /** Video frames decoded so far (stats) and when that count last grew (local ms): a camera turned off sends none. */
  framesDecoded: number;
  framesAtMs: number;
  muted: boolean;
  volume: number;
  level: number;
}

function browserEnvironment(): VoiceEnvironment {
  return {
    getUserMedia: (constraints) => navigator.mediaDevices.getUserMedia(constraints),
    createPeerConnection: (configuration) => new RTCPeerConnection(configuration),
    playStream: (stream) => {
      const audio = new Audio() as HTMLAudioElement & { setSinkId?(deviceId: string): Promise<void> };
      audio.autoplay = true;
      audio.srcObject = stream;
      void audio.play().catch(() => undefined);
      return {
        setVolume: (volume) => {
          audio.volume = volume;
        },
        setSinkId: audio.setSinkId ? (deviceId) => audio.setSinkId!(deviceId) : undefined,
        stop: () => {
          audio.pause();
          audio.srcObject = null;
        },
      };
    },
    secure: typeof window !== 'undefined' && window.isSecureContext && Boolean(navigator.mediaDevices?.getUserMedia),
  };
}

/** Maps a getUserMedia rejection to what the voice bar says. */
export function voiceFailureOf(error: unknown): VoiceFailure {
  const name = error instanceof Error || (typeof error === 'object' && error !== null && 'name' in error) ? String((error as { name: unknown }).name) : '';
  if (name === 'NotAllowedError' || name === 'SecurityError' || name === 'PermissionDeniedError') return 'denied';
  if (name === 'NotFoundError' || name === 'OverconstrainedError' || name === 'DevicesNotFoundError') return 'no-device';
  if (name === 'NotReadableError' || name === 'TrackStartError' || name === 'AbortError') return 'busy';
  return 'failed';
}

/** The call of one room socket; see the module comment. `join()` on the user's click, `close()` when the hall closes. */
export class VoiceMesh {
  private readonly peers = new Map<string, Peer>();
  /** Candidates from connections that have no peer connection here yet, by `userId:connId`. */
  private readonly earlyCandidates = new Map<string, RTCIceCandidateInit[]>();
  private readonly environment: VoiceEnvironment;
  private iceServers: RTCIceServer[];
  private local: MediaStream | null = null;
  private wantJoined = false;
  private joining = false;
  private muted = false;
  private level = 0;
  private full = false;
  private failure: VoiceFailure | null = null;
  private closed = false;
  private microphoneId = '';
  private speakerId = '';
  private camera: MediaStream | null = null;
  private cameraFailure: VoiceFailure | null = null;

  private readonly now: () => number;
  /** `visibleLevels()` at the last emit. */
  private shownLevels = '';

  constructor(private readonly options: VoiceMeshOptions) {
    this.environment = options.environment ?? browserEnvironment();
    this.now = options.now ?? Date.now;
    this.iceServers = options.iceServers ?? DEFAULT_ICE_SERVERS;
  }

  /** The state the voice bar shows. */
  state(): VoiceState {
    return {
      joined: this.wantJoined && this.local !== null,
      joining: this.joining,
      muted: this.muted,
      level: this.level,
      full: this.full,
      failure: this.failure,
      microphoneId: this.local?.getAudioTracks()[0]?.getSettings?.().deviceId ?? this.microphoneId,
      speakerId: this.speakerId,
      camera: this.camera,
      cameraFailure: this.cameraFailure,
      peers: [...this.peers.values()].map((peer) => ({
        id: peer.id,
        userId: peer.userId,
        username: peer.username,
        state: peer.connection.connectionState,
        muted: peer.muted,
        volume: peer.volume,
        level: peer.level,
        video: this.videoShown(peer) ? peer.video!.stream : null,
      })),
    };
  }

  /**
   * Asks for the microphone and joins the call. Resolves false (with `failure` set in the state) when
   * the microphone cannot be had; true once WEBRTC_JOIN went out (or will, when the socket opens).
   */
  async join(): Promise<boolean> {
    if (this.closed || this.wantJoined || this.joining) return this.wantJoined;
    this.failure = null;
    if (!this.environment.secure) {
      this.failure = 'insecure';
      this.emit();
      return false;
    }
    this.joining = true;
    this.emit();
    try {
      this.local = await this.environment.getUserMedia(microphoneConstraints(this.microphoneId));
    } catch (error) {
      this.joining = false;
      this.failure = voiceFailureOf(error);
      this.emit();
      return false;
    }
    this.joining = false;
    if (this.closed) {
      this.stopLocal();
      return false;
    }
    this.setMuted(this.muted);
    this.wantJoined = true;
    this.options.send(MessageType.WEBRTC_JOIN);
    this.emit();
    return true;
  }

  /** Leaves the call: WEBRTC_LEAVE, every peer connection closed, the microphone released. */
  leave(): void {
    if (this.wantJoined) this.options.send(MessageType.WEBRTC_LEAVE);
    this.wantJoined = false;
    this.closeAllPeers();
    this.stopLocal();
    this.stopCamera();
    this.full = false;
    this.level = 0;
    this.emit();
  }

  /** Leaves and stops for good (the hall closes). */
  close(): void {
    this.leave();
    this.closed = true;
  }

  /** The STUN/TURN servers of the peer connections opened from now on. */
  setIceServers(servers: RTCIceServer[]): void {
    this.iceServers = servers;
  }

  /** Mutes or unmutes the microphone (the track keeps running, so unmuting is instant). */
  setMuted(muted: boolean): void {
    this.muted = muted;
    for (const track of this.local?.getAudioTracks() ?? []) track.enabled = !muted;
    this.emit();
  }

  /**
   * Switches to the microphone `deviceId` (from `enumerateDevices`): the new track replaces the old
   * one in every connection without renegotiating, muted if the call is muted. Resolves false (and
   * keeps the old microphone) when the device cannot be opened.
   */
  async setMicrophone(deviceId: string): Promise<boolean> {
    if (!this.local) {
      this.microphoneId = deviceId;
      return true;
    }
    let next: MediaStream;
    try {
      next = await this.environment.getUserMedia(microphoneConstraints(deviceId));
    } catch {
      this.emit();
      return false;
    }
    const track = next.getAudioTracks()[0];
    if (!this.local || !track) {
      for (const unused of next.getTracks()) unused.stop();
      return false;
    }
    track.enabled = !this.muted;
    for (const peer of this.peers.values()) {
      for (const sender of peer.connection.getSenders()) if (sender.track?.kind === 'audio') await sender.replaceTrack(track).catch(() => undefined);
    }
    for (const old of this.local.getTracks()) old.stop();
    this.local = next;
    this.microphoneId = deviceId;
    this.emit();
    return true;
  }

  /**
   * Turns the camera on or off while in the call. Every connection carries a video sender from its
   * start, so the camera goes in and out with `replaceTrack`, without renegotiating. Resolves false
   * (with `cameraFailure` set) when the camera cannot be opened.
   */
  async setCamera(on: boolean): Promise<boolean> {
    this.cameraFailure = null;
    if (!on) {
      this.stopCamera();
      for (const peer of this.peers.values()) await this.videoTransceiver(peer)?.sender.replaceTrack(null).catch(() => undefined);
      this.emit();
      return true;
    }
    if (this.camera || !this.local) return Boolean(this.camera);
    let camera: MediaStream;
    try {
      camera = await this.environment.getUserMedia(CAMERA_CONSTRAINTS);
    } catch (error) {
      this.cameraFailure = voiceFailureOf(error);
      this.emit();
      return false;
    }
    if (!this.local || this.camera) {
      for (const track of camera.getTracks()) track.stop();
      return Boolean(this.camera);
    }
    this.camera = camera;
    for (const peer of this.peers.values()) await this.sendCamera(peer);
    this.emit();
    return true;
  }

  /** Plays everyone through the audio output `deviceId` ("" = the default), now and for those who join later. */
  async setSpeaker(deviceId: string): Promise<void> {
    this.speakerId = deviceId;
    await Promise.all([...this.peers.values()].map((peer) => peer.player?.setSinkId?.(deviceId).catch(() => undefined)));
    this.emit();
  }

  /** Mutes one person for this page only, or sets their volume (0–1). */
  setPeerAudio(id: string, audio: { muted?: boolean; volume?: number }): void {
    const peer = this.peers.get(id);
    if (!peer) return;
    if (audio.muted !== undefined) peer.muted = audio.muted;
    if (audio.volume !== undefined) peer.volume = Math.min(1, Math.max(0, audio.volume));
    peer.player?.setVolume(peer.muted ? 0 : peer.volume);
    this.emit();
  }

  /** The room socket opened (again): a call that was on joins again. */
  onSocketOpen(): void {
    if (this.wantJoined && this.local) this.options.send(MessageType.WEBRTC_JOIN);
  }

  /** The room socket closed: the server ends this connection's part in the call, so do the peers. */
  onSocketClose(): void {
    this.closeAllPeers();
    this.emit();
  }

  /** Handles a WEBRTC_* frame from the room socket; other frames are ignored. */
  handleFrame(message: Message): void {
    if (this.closed) return;
    const data = message.payload.case === 'webrtcData' ? message.payload.value : null;
    const from = data?.from ?? '';
    if (!from) return;
    const sender = { userId: message.sender?.userId ?? from.split(':')[0], username: message.sender?.username ?? '' };
    switch (message.type) {
      case MessageType.WEBRTC_JOIN:
        if (this.wantJoined && this.local) void this.offerTo(from, sender);
        break;
      case MessageType.WEBRTC_LEAVE:
        this.closePeer(from);
        this.full = this.full && this.peers.size >= MAX_VOICE_PEERS;
        this.emit();
        break;
      case MessageType.WEBRTC_OFFER:
        if (this.wantJoined && this.local) void this.answer(from, sender, data!.data);
        break;
      case MessageType.WEBRTC_ANSWER:
        void this.onAnswer(from, data!.data);
        break;
      case MessageType.WEBRTC_ICE_CANDIDATE:
        void this.onCandidate(from, data!.data);
        break;
      default:
        break;
    }
  }

  /**
   * Reads the audio levels (0–1) of the microphone and of each person, and whether their camera
   * sends frames, from the connections' stats; the voice bar calls it a few times a second.
   */
  async readLevels(): Promise<void> {
    let local = 0;
    for (const peer of this.peers.values()) {
      let level = 0;
      try {
        const report = await peer.connection.getStats();
        report.forEach((entry: { type?: string; kind?: string; audioLevel?: number; framesDecoded?: number }) => {
          if (entry.type === 'inbound-rtp' && entry.kind === 'audio' && typeof entry.audioLevel === 'number') level = Math.max(level, entry.audioLevel);
          if (entry.type === 'inbound-rtp' && entry.kind === 'video' && typeof entry.framesDecoded === 'number' && entry.framesDecoded > peer.framesDecoded) {
            peer.framesDecoded = entry.framesDecoded;
            peer.framesAtMs = this.now();
          }
          if (entry.type === 'media-source' && entry.kind === 'audio' && typeof entry.audioLevel === 'number') local = Math.max(local, entry.audioLevel);
        });
      } catch {
        // A closed connection has no stats.
      }
      peer.level = level;
    }
    this.level = this.muted ? 0 : local;
    // Only what the bar shows (who speaks, whose video comes) re-renders it, not every level.
    if (this.visibleLevels() !== this.shownLevels) this.emit();
  }

  /** Who speaks and whose video is shown, as one string to compare between two readings. */
  private visibleLevels(): string {
    const speaking = (level: number) => (level >= SPEAKING_LEVEL ? 'S' : '-');
    return [speaking(this.level), ...[...this.peers.values()].map((peer) => `${peer.id}${speaking(peer.level)}${this.videoShown(peer) ? 'V' : '-'}`)].join(' ');
  }

  private async offerTo(id: string, sender: { userId: string; username: string }): Promise<void> {
    const peer = this.openPeer(id, sender);
    if (!peer) return;
    try {
      // A video sender from the start, so that a camera later needs no new offer.
      peer.connection.addTransceiver('video', { direction: 'sendrecv' });
      await this.sendCamera(peer);
      const offer = await peer.connection.createOffer();
      await peer.connection.setLocalDescription(offer);
      this.options.send(MessageType.WEBRTC_OFFER, { to: id, data: JSON.stringify(peer.connection.localDescription) });
      this.sendUnsentCandidates(peer);
    } catch {
      this.closePeer(id);
      this.emit();
    }
  }

  private async answer(id: string, sender: { userId: string; username: string }, json: string): Promise<void> {
    const description = parse<RTCSessionDescriptionInit>(json);
    if (!description?.sdp) return;
    const peer = this.peers.get(id) ?? this.openPeer(id, sender);
    if (!peer) return;
    try {
      await peer.connection.setRemoteDescription(description);
      await this.flushCandidates(peer);
      const video = this.videoTransceiver(peer);
      if (video) {
        video.direction = 'sendrecv';
        await this.sendCamera(peer);
      }
      const answer = await peer.connection.createAnswer();
      await peer.connection.setLocalDescription(answer);
      this.options.send(MessageType.WEBRTC_ANSWER, { to: id, data: JSON.stringify(peer.connection.localDescription) });
      this.sendUnsentCandidates(peer);
    } catch {
      this.closePeer(id);
      this.emit();
    }
  }

  private async onAnswer(id: string, json: string): Promise<void> {
    const peer = this.peers.get(id);
    const description = parse<RTCSessionDescriptionInit>(json);
    if (!peer || !description?.sdp) return;
    try {
      await peer.connection.setRemoteDescription(description);
      await this.flushCandidates(peer);
    } catch {
      this.closePeer(id);
      this.emit();
    }
  }

  private async onCandidate(id: string, json: string): Promise<void> {
    const peer = this.peers.get(id);
    const candidate = parse<RTCIceCandidateInit>(json);
    if (!candidate) return;
    if (!peer) {
      // A candidate may overtake its offer (the reference client sends them as they come).
      if (!this.wantJoined) return;
      const early = this.earlyCandidates.get(id) ?? [];
      if (early.length === 0 && this.earlyCandidates.size >= EARLY_CANDIDATE_PEERS) return;
      if (early.length < EARLY_CANDIDATES_PER_PEER) early.push(candidate);
      this.earlyCandidates.set(id, early);
      return;
    }
    if (!peer.connection.remoteDescription) {
      peer.pendingCandidates.push(candidate);
      return;
    }
    await peer.connection.addIceCandidate(candidate).catch(() => undefined);
  }

  private sendUnsentCandidates(peer: Peer): void {
    const unsent = peer.unsentCandidates ?? [];
    peer.unsentCandidates = null;
    for (const data of unsent) this.options.send(MessageType.WEBRTC_ICE_CANDIDATE, { to: peer.id, data });
  }

  /**
   * A remote camera is shown while frames come: its track is live and unmuted, and the decoded frame
   * count grew within VIDEO_STALE_MS (a camera turned off sends nothing, but browsers mute the
   * receiving track only much later, if ever).
   */
  private videoShown(peer: Peer): boolean {
    const video = peer.video;
    return Boolean(video && !video.track.muted && video.track.readyState !== 'ended' && this.now() - peer.framesAtMs < VIDEO_STALE_MS);
  }

  /** The connection's video transceiver (made with it, or by the remote offer), if any. */
  private videoTransceiver(peer: Peer): RTCRtpTransceiver | undefined {
    return peer.connection.getTransceivers().find((transceiver) => transceiver.receiver.track?.kind === 'video');
  }

  private async sendCamera(peer: Peer): Promise<void> {
    const track = this.camera?.getVideoTracks()[0];
    const transceiver = this.videoTransceiver(peer);
    if (track && transceiver) await transceiver.sender.replaceTrack(track).catch(() => undefined);
  }

  private stopCamera(): void {
    for (const track of this.camera?.getTracks() ?? []) track.stop();
    this.camera = null;
  }

  private async flushCandidates(peer: Peer): Promise<void> {
    for (const candidate of peer.pendingCandidates.splice(0)) await peer.connection.addIceCandidate(candidate).catch(() => undefined);
  }

  /** A new peer connection to `id` carrying the microphone, or null when the call is full. */
  private openPeer(id: string, sender: { userId: string; username: string }): Peer | null {
    this.closePeer(id);
    if (this.peers.size >= MAX_VOICE_PEERS) {
      this.full = true;
      this.emit();
      return null;
    }
    const connection = this.environment.createPeerConnection({ iceServers: this.iceServers });
    const peer: Peer = {
      id,
      ...sender,
      connection,
      pendingCandidates: this.earlyCandidates.get(id) ?? [],
      unsentCandidates: [],
      player: null,
      video: null,
      framesDecoded: 0,
      framesAtMs: Number.NEGATIVE_INFINITY,
      muted: false,
      volume: 1,
      level: 0,
    };
    this.earlyCandidates.delete(id);
    this.peers.set(id, peer);
    for (const track of this.local?.getTracks() ?? []) connection.addTrack(track, this.local!);
    connection.onicecandidate = (event) => {
      if (!event.candidate) return;
      const data = JSON.stringify(event.candidate.toJSON());
      if (peer.unsentCandidates) peer.unsentCandidates.push(data);
      else this.options.send(MessageType.WEBRTC_ICE_CANDIDATE, { to: id, data });
    };
    connection.ontrack = (event) => {
      if (this.peers.get(id) !== peer) return;
      const stream = event.streams[0] ?? new MediaStream([event.track]);
      if (event.track.kind === 'video') {
        peer.video = { stream, track: event.track };
        event.track.onmute = event.track.onunmute = event.track.onended = () => this.emit();
        this.emit();
        return;
      }
      if (peer.player) return;
      peer.player = this.environment.playStream(stream);
      peer.player.setVolume(peer.muted ? 0 : peer.volume);
      if (this.speakerId) void peer.player.setSinkId?.(this.speakerId).catch(() => undefined);
    };
    connection.onconnectionstatechange = () => this.emit();
    this.emit();
    return peer;
  }

  private closePeer(id: string): void {
    const peer = this.peers.get(id);
    if (!peer) return;
    this.peers.delete(id);
    peer.player?.stop();
    peer.connection.onicecandidate = null;
    peer.connection.ontrack = null;
    peer.connection.onconnectionstatechange = null;
    peer.connection.close();
  }

  private closeAllPeers(): void {
    for (const id of [...this.peers.keys()]) this.closePeer(id);
    this.earlyCandidates.clear();
  }

  private stopLocal(): void {
    for (const track of this.local?.getTracks() ?? []) track.stop();
    this.local = null;
  }

  private emit(): void {
    this.shownLevels = this.visibleLevels();
    this.options.onChange(this.state());
  }
}

function parse<T>(json: string): T | null {
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'object' && value !== null ? (value as T) : null;
  } catch {
    return null;
  }
}
