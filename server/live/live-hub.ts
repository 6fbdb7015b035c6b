/**
 * Live streams pushed into rooms over RTMP (docs/live.md): one stream per rtmp-source movie, one
 * publisher at a time, any number of HTTP-FLV viewers. A viewer who arrives mid-stream gets the
 * FLV header, the metadata, the codec headers and the current group of pictures (from the last key
 * frame), so the picture starts at once.
 *
 * The RTMP side (./rtmp.ts) hands packets in as node-media-server's parser produces them; the FLV
 * tags are written by node-media-server's FLV muxer. What is ours is the room's rules: who may
 * publish, a reconnecting encoder taking over, and the stream ending with its movie or room.
 */
import Flv from 'node-media-server/src/protocol/flv.js';
import type AVPacket from 'node-media-server/src/core/avpacket.js';

/** A viewer's byte sink (an HTTP response). */
export interface LiveViewer {
  /** Writes one chunk; returns how many bytes are still queued to this viewer. */
  write(chunk: Buffer): number;
  /** Ends the viewer's stream (the broadcast ended or the viewer fell too far behind). */
  end(): void;
}

/** The publisher's side, to stop it from the hub (its movie was deleted, or another push took over). */
export interface LivePublisher {
  close(): void;
}

/** A viewer with more than this queued (bytes) cannot keep up and is dropped; the player reconnects at the live edge. */
export const MAX_VIEWER_BACKLOG_BYTES = 8 * 1024 * 1024;
/** A group of pictures longer than this many packets is not kept (an encoder without key frames). */
const MAX_GOP_PACKETS = 4096;
/** How often live streams check that their movie and room still exist, ms. */
export const LIVE_CHECK_EVERY_MS = 1000;

/** FLV packet flags of node-media-server's parser (core/avpacket.js). */
const enum PacketFlag {
  AudioHeader = 0,
  AudioFrame = 1,
  VideoHeader = 2,
  KeyFrame = 3,
  InterFrame = 4,
  Metadata = 5,
}

/** One movie's stream. */
class LiveStream {
  publisher: LivePublisher | null = null;
  readonly viewers = new Set<LiveViewer>();
  private metadata: Buffer | null = null;
  private audioHeader: Buffer | null = null;
  private videoHeader: Buffer | null = null;
  private gop: Buffer[] = [];
  /** When the current publisher started (Unix ms). */
  startedAtMs = 0;

  constructor(
    readonly roomId: string,
    readonly movieId: string,
  ) {}

  packet(packet: AVPacket): void {
    const tag = Flv.createMessage(packet);
    switch (packet.flags) {
      case PacketFlag.AudioHeader:
        this.audioHeader = tag;
        break;
      case PacketFlag.VideoHeader:
        this.videoHeader = tag;
        break;
      case PacketFlag.Metadata:
        this.metadata = tag;
        break;
      case PacketFlag.KeyFrame:
        this.gop = [tag];
        break;
      default:
        if (this.gop.length > 0) this.gop.push(tag);
        if (this.gop.length > MAX_GOP_PACKETS) this.gop = [];
    }
    for (const viewer of this.viewers) this.send(viewer, tag);
  }

  /** Starts `viewer` at the current picture. */
  join(viewer: LiveViewer): void {
    this.viewers.add(viewer);
    this.send(viewer, Flv.createHeader(true, true));
    for (const tag of [this.metadata, this.audioHeader, this.videoHeader, ...this.gop]) if (tag) this.send(viewer, tag);
  }

  /** The publisher left: the codec state goes with it; viewers end (their players show the end). */
  endBroadcast(): void {
    this.publisher = null;
    this.metadata = this.audioHeader = this.videoHeader = null;
    this.gop = [];
    for (const viewer of this.viewers) viewer.end();
    this.viewers.clear();
  }

  private send(viewer: LiveViewer, chunk: Buffer): void {
    if (viewer.write(chunk) > MAX_VIEWER_BACKLOG_BYTES) {
      this.viewers.delete(viewer);
      viewer.end();
    }
  }
}

/** A publisher's handle on its stream. */
export interface LivePublication {
  packet(packet: AVPacket): void;
  /** The publisher's connection closed. */
  end(): void;
}

/**
 * Every live stream of the server. `isLive(roomId, movieId)` says whether the movie may still be
 * broadcast (it exists, is an rtmp source, and its room is neither deleted nor banned); a stream
 * whose movie is gone ends within LIVE_CHECK_EVERY_MS.
 */
export class LiveHub {
  private readonly streams = new Map<string, LiveStream>();
  private readonly timer: NodeJS.Timeout;

  /**
   * `onChange` runs after a broadcast starts or ends (the registry tells the other instances which
   * movies this one broadcasts, ../hub/registry.ts); `onStart` after a push of `movieId` starts (the
   * room may play it: ../rules/live.ts `playArrivedBroadcast`).
   */
  constructor(
    private readonly isLive: (roomId: string, movieId: string) => Promise<boolean>,
    private readonly onChange: () => void = () => undefined,
    private readonly onStart: (roomId: string, movieId: string) => void = () => undefined,
  ) {
    this.timer = setInterval(() => void this.sweep().catch(() => undefined), LIVE_CHECK_EVERY_MS);
    this.timer.unref();
  }

  /** Ids of the movies being broadcast now. */
  publishing(): string[] {
    return [...this.streams].filter(([, stream]) => stream.publisher).map(([movieId]) => movieId);
  }

  /**
   * Starts a broadcast of `movieId`. A publisher already on it (an encoder reconnecting after a
   * drop, whose old connection the server has not noticed yet) is closed: the newest push wins,
   * and only the movie's creator has its key.
   */
  publish(roomId: string, movieId: string, publisher: LivePublisher): LivePublication {
    const stream = this.streamOf(roomId, movieId);
    const takeover = stream.publisher;
    if (takeover) {
      stream.endBroadcast();
      takeover.close();
    }
    stream.publisher = publisher;
    stream.startedAtMs = Date.now();
    this.onChange();
    // An encoder taking over its own broadcast goes on with it; only a broadcast coming on the air may change the room.
    if (!takeover) this.onStart(roomId, movieId);
    return {
      packet: (packet) => {
        if (stream.publisher === publisher) stream.packet(packet);
      },
      end: () => {
        if (stream.publisher !== publisher) return;
        stream.endBroadcast();
        this.streams.delete(movieId);
        this.onChange();
      },
    };
  }

  /** Whether `movieId` is being broadcast now. */
  isPublishing(movieId: string): boolean {
    return Boolean(this.streams.get(movieId)?.publisher);
  }

  /** Adds `viewer` to the broadcast of `movieId`; false when nobody is broadcasting it. Returns a function that removes the viewer. */
  watch(movieId: string, viewer: LiveViewer): (() => void) | null {
    const stream = this.streams.get(movieId);
    if (!stream?.publisher) return null;
    stream.join(viewer);
    return () => stream.viewers.delete(viewer);
  }

  /** Ends every broadcast (the server stops). */
  close(): void {
    clearInterval(this.timer);
    for (const stream of this.streams.values()) {
      const publisher = stream.publisher;
      stream.endBroadcast();
      publisher?.close();
    }
    this.streams.clear();
  }

  /** Ends the broadcasts whose movie or room went away. */
  private async sweep(): Promise<void> {
    for (const [movieId, stream] of [...this.streams]) {
      if (await this.isLive(stream.roomId, movieId)) continue;
      // Ended meanwhile, or replaced by a new push of the same movie.
      if (this.streams.get(movieId) !== stream) continue;
      const publisher = stream.publisher;
      stream.endBroadcast();
      publisher?.close();
      this.streams.delete(movieId);
      this.onChange();
    }
  }

  private streamOf(roomId: string, movieId: string): LiveStream {
    let stream = this.streams.get(movieId);
    if (!stream) {
      stream = new LiveStream(roomId, movieId);
      this.streams.set(movieId, stream);
    }
    return stream;
  }
}
