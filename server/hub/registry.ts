/**
 * All live room hubs of this instance, and the room fan-out across instances.
 *
 * A hub is created lazily by the first socket of a room and dropped when its last socket closes, so
 * `/api/room/hot` lists only rooms someone is watching (§4.3, §6.5). Without a cluster bus every
 * broadcast is written to this process's sockets at once. With one (../cluster/bus.ts, `REDIS_URL`)
 * every broadcast, kick and close is published, and each instance, this one included, applies it
 * when Redis hands it back: every instance sees a room's frames in the same order. Each instance also
 * publishes which connections it holds (on every change, and in full every hub tick), so viewer
 * counts, online counts, the hot list and WebRTC targets cover the whole cluster
 * (docs/deployment.md "Running more than one instance").
 */
import crypto from 'node:crypto';
import { encodeMessage, MessageType } from '@/lib/contract/message';
import type { BusTrouble, ClusterBus, ClusterEvent, PresenceEntry } from '../cluster/bus';
import { EVERYONE, HUB_TICK_MS, RoomHub, type Audience, type HubRouting } from './room-hub';

/** What this instance knows of another one. */
interface RemoteInstance {
  /** When its last event arrived (ms, this server's clock). */
  seenAt: number;
  /** Its open connections per room. */
  rooms: Map<string, PresenceEntry[]>;
  /** The movies whose RTMP push it holds, and where it takes requests for them. */
  live?: { url: string; movies: Set<string> };
  /** Where it takes requests for the conversions it owns (it converts movies). */
  converterUrl?: string;
}

/** How many hub ticks without a word from an instance before its connections stop counting (it crashed). */
const STALE_AFTER_TICKS = 3;
/** Room presence changes are gathered for this long (ms) and published together. */
const PRESENCE_DEBOUNCE_MS = 50;
/** The resync frames after an interruption reach a room's sockets spread over this long (ms). */
const RESYNC_SPREAD_MS = 1000;

/**
 * Whether a socket of `userId` that opened with `userVersion` may stay in `roomId`, from the
 * database (../rules/room-access.ts `mayStay`). Rejects when the database does not answer.
 */
export type AccessCheck = (roomId: string, userId: string, userVersion: number | null) => Promise<boolean>;

/** What every client is sent when its room's fan-out was interrupted: re-read the current movie, the list, and its membership. */
const RESYNC_FRAMES = [MessageType.CURRENT, MessageType.MOVIES, MessageType.MY_STATUS].map((type) => encodeMessage({ type }));

export class HubRegistry {
  private readonly hubs = new Map<string, RoomHub>();
  private readonly tickMs: number;
  private readonly bus: ClusterBus | null;
  private readonly remotes = new Map<string, RemoteInstance>();
  private readonly dirtyRooms = new Set<string>();
  private presenceTimer: NodeJS.Timeout | null = null;
  private readonly heartbeat: NodeJS.Timeout | null = null;
  private readonly routing: HubRouting;
  /** This instance's live streams, for the others: set by `shareLive`. */
  private liveSource: { url: string; movies: () => string[] } | null = null;
  /** This instance's conversions, for the others: set by `shareConversions`. */
  private conversions: { url: string; keepOnly: (roomId: string, movieId: string) => void } | null = null;
  /** Set by `setAccessCheck`. */
  private accessCheck: AccessCheck | null = null;
  /** True while the bus is down, or since a publish failed, until it is back. */
  private interrupted = false;
  /** The re-check under way, if any. */
  private rechecking: Promise<void> | null = null;

  /** `bus`: the cluster's (null: this process alone, as `npm start` runs by default). */
  constructor(tickMs = HUB_TICK_MS, bus: ClusterBus | null = null) {
    this.tickMs = tickMs;
    this.bus = bus;
    this.routing = {
      send: (roomId, frame, audience, exceptId) => this.send(roomId, frame, audience, exceptId),
      viewerCount: (roomId) => this.viewerCount(roomId),
      reaches: (roomId, userId, connectionId) => this.reaches(roomId, userId, connectionId),
      changed: (hub) => this.presenceChanged(hub.roomId),
      empty: (hub) => {
        hub.dispose();
        if (this.hubs.get(hub.roomId) === hub) this.hubs.delete(hub.roomId);
      },
    };
    if (bus) {
      bus.onEvent((from, event) => this.apply(from, event));
      bus.onTrouble((trouble) => this.troubled(trouble));
      bus.publish({ kind: 'hello' });
      this.heartbeat = setInterval(() => this.publishPresence(), tickMs);
      this.heartbeat.unref();
    }
  }

  /**
   * How to re-check a socket against the database after the instances could not tell each other
   * of bans, kicks and deletions (a Redis outage, a lost event). Without it nothing is re-checked.
   */
  setAccessCheck(check: AccessCheck): void {
    this.accessCheck = check;
  }

  /** The room's hub, created on first use. */
  getOrCreate(roomId: string): RoomHub {
    let hub = this.hubs.get(roomId);
    if (!hub) {
      hub = new RoomHub(roomId, this.tickMs, this.routing);
      this.hubs.set(roomId, hub);
    }
    return hub;
  }

  get(roomId: string): RoomHub | undefined {
    return this.hubs.get(roomId);
  }

  /**
   * Tells the other instances, now and with every heartbeat, which movies this one broadcasts and
   * that `url` reaches it (their viewers' requests for those streams are forwarded there).
   */
  shareLive(url: string, movies: () => string[]): void {
    this.liveSource = { url, movies };
    this.publishLive();
  }

  /** Call when this instance's broadcasts changed (../live/live-hub.ts `onChange`). */
  liveChanged(): void {
    this.publishLive();
  }

  /**
   * This instance converts movies (../transcode/converter.ts), at `url` for the others; `keepOnly`
   * stops its conversions of a room but those of one movie (`Converter.keepOnly`).
   */
  shareConversions(url: string, keepOnly: (roomId: string, movieId: string) => void): void {
    this.conversions = { url, keepOnly };
    this.publishConverter();
  }

  /**
   * The instance that converts the movies of `key` (`<room> <movie>`, every choice of it), or null
   * when it is this one: of this instance and the others that convert, heard from lately, the one
   * whose hash with the key is highest (rendezvous hashing). Every instance picks the same one while
   * they hear the same instances; when one goes away, only its movies move.
   */
  conversionOwner(key: string): string | null {
    if (!this.bus || !this.conversions) return null;
    const score = (instanceId: string) => crypto.createHash('sha256').update(`${instanceId}\n${key}`).digest().readBigUInt64BE();
    let best: { score: bigint; url: string | null } = { score: score(this.bus.instanceId), url: null };
    for (const [id, remote] of this.remotes) {
      if (!remote.converterUrl || remote.seenAt < Date.now() - STALE_AFTER_TICKS * this.tickMs) continue;
      const candidate = score(id);
      if (candidate > best.score) best = { score: candidate, url: remote.converterUrl };
    }
    return best.url;
  }

  /** Stops the conversions of room `roomId` but those of `movieId` on every instance (its current movie changed; "" for none). */
  keepConversions(roomId: string, movieId: string): void {
    if (this.clustered()) this.bus?.publish({ kind: 'keep-conversions', roomId, movieId });
    else this.conversions?.keepOnly(roomId, movieId);
  }

  /** The URL of another instance that holds the push of `movieId`, or null. */
  liveElsewhere(movieId: string): string | null {
    return this.liveRemotes().find((remote) => remote.live?.movies.has(movieId))?.live?.url ?? null;
  }

  /** Viewer count of a room on every instance: distinct user ids with an open socket (§6.5); 0 when nobody watches. */
  viewerCount = (roomId: string): number => new Set(this.roomEntries(roomId).map(([, userId]) => userId)).size;

  /** Open sockets of `userId` in the room on every instance (members list `onlineCount`). */
  onlineCount(roomId: string, userId: string): number {
    return this.roomEntries(roomId).filter(([, user]) => user === userId).length;
  }

  /** Ids of rooms with an open socket on any instance. */
  liveRoomIds(): string[] {
    const ids = new Set(this.hubs.keys());
    for (const remote of this.liveRemotes()) for (const [roomId, entries] of remote.rooms) if (entries.length) ids.add(roomId);
    return [...ids];
  }

  /**
   * Tells a room that something changed (CURRENT after a new current movie, MOVIES after a list
   * change; §6.5): `sender` only, to everyone including the actor.
   */
  notify(roomId: string, type: MessageType.CURRENT | MessageType.MOVIES, sender: { userId: string; username: string }): void {
    this.send(roomId, encodeMessage({ type, sender }), EVERYONE);
  }

  /**
   * MY_STATUS (§6.5): tells every connection of `userId` (or of everyone in the room when `userId` is
   * null) that their role or permissions changed, so that they re-GET `/api/room/me`. `sender` is
   * the room admin who made the change.
   */
  notifyMyStatus(roomId: string, userId: string | null, sender: { userId: string; username: string }): void {
    this.send(roomId, encodeMessage({ type: MessageType.MY_STATUS, sender }), userId === null ? EVERYONE : { kind: 'user', userId });
  }

  /** Closes a user's sockets in one room, on every instance. */
  kickUser(roomId: string, userId: string): void {
    if (this.clustered()) this.bus?.publish({ kind: 'kick', roomId, userId });
    else this.hubs.get(roomId)?.kickUser(userId);
  }

  /** Closes a user's sockets in every room, on every instance (account deleted). */
  kickUserEverywhere(userId: string): void {
    if (this.clustered()) this.bus?.publish({ kind: 'kick', roomId: null, userId });
    else for (const hub of this.hubs.values()) hub.kickUser(userId);
  }

  /** Disconnects everyone from a room, on every instance (room deleted or banned). */
  closeRoom(roomId: string): void {
    if (this.clustered()) this.bus?.publish({ kind: 'close-room', roomId });
    else this.closeLocalRoom(roomId);
  }

  /**
   * Disconnects this instance's sockets (server shutdown), with `frame` as the close frame when
   * given (./room-hub.ts `close`), and tells the other instances that its connections are gone.
   */
  closeAll(frame?: { code: number; reason: string }): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.presenceTimer) clearTimeout(this.presenceTimer);
    for (const hub of this.hubs.values()) hub.close(frame);
    this.hubs.clear();
    this.bus?.publish({ kind: 'bye' });
  }

  /**
   * Whether broadcasts go through the bus: there is one and Redis is reachable. While it is not, this
   * instance's rooms go on among its own sockets (the others' viewers are counted out after three
   * ticks) rather than fall silent, and publishing resumes when Redis is back.
   */
  private clustered(): boolean {
    return this.bus?.ready() ?? false;
  }

  /** Where every broadcast goes: the bus while clustered, else this process's sockets. */
  private send(roomId: string, frame: Uint8Array, audience: Audience, exceptId?: string): void {
    if (this.clustered()) this.bus?.publish({ kind: 'frame', roomId, frame: Buffer.from(frame).toString('base64'), audience, except: exceptId });
    else this.hubs.get(roomId)?.deliver(frame, audience, exceptId);
  }

  private closeLocalRoom(roomId: string): void {
    const hub = this.hubs.get(roomId);
    if (!hub) return;
    this.hubs.delete(roomId);
    hub.close();
    this.presenceChanged(roomId);
  }

  private reaches(roomId: string, userId: string, connectionId: string): boolean {
    if (this.hubs.get(roomId)?.hasLocal(userId, connectionId)) return true;
    return this.liveRemotes().some((remote) => remote.rooms.get(roomId)?.some(([id, user]) => id === connectionId && user === userId));
  }

  /** The room's connections here and on the instances heard from lately. */
  private roomEntries(roomId: string): PresenceEntry[] {
    const entries: PresenceEntry[] = this.hubs.get(roomId)?.entries() ?? [];
    for (const remote of this.liveRemotes()) entries.push(...(remote.rooms.get(roomId) ?? []));
    return entries;
  }

  private liveRemotes(): RemoteInstance[] {
    if (!this.bus) return [];
    const horizon = Date.now() - STALE_AFTER_TICKS * this.tickMs;
    return [...this.remotes.values()].filter((remote) => remote.seenAt >= horizon);
  }

  private presenceChanged(roomId: string): void {
    if (!this.clustered()) return;
    this.dirtyRooms.add(roomId);
    this.presenceTimer ??= setTimeout(() => {
      this.presenceTimer = null;
      for (const dirty of this.dirtyRooms) {
        this.bus?.publish({ kind: 'room-presence', roomId: dirty, connections: this.hubs.get(dirty)?.entries() ?? [] });
      }
      this.dirtyRooms.clear();
    }, PRESENCE_DEBOUNCE_MS);
  }

  private publishConverter(): void {
    if (this.clustered() && this.conversions) this.bus?.publish({ kind: 'converter', url: this.conversions.url });
  }

  private publishLive(): void {
    if (!this.clustered() || !this.liveSource) return;
    this.bus?.publish({ kind: 'live', url: this.liveSource.url, movies: this.liveSource.movies() });
  }

  /**
   * After BusTrouble (docs/deployment.md "Running more than one instance"): while the bus is down,
   * this instance re-checks its sockets against the database every tick (a ban made on another
   * instance closes the banned user's socket here within a tick); once it is back, or when events
   * were lost, it re-checks at once and tells every client to resync (CURRENT, MOVIES and MY_STATUS,
   * spread over a second): what the others broadcast meanwhile never arrived.
   */
  private troubled(trouble: BusTrouble): void {
    if (trouble === 'down') {
      this.interrupted = true;
      void this.recheckLocal();
      return;
    }
    if (trouble === 'up') this.interrupted = false;
    void this.recheckLocal();
    for (const hub of this.hubs.values()) hub.resync(RESYNC_FRAMES, RESYNC_SPREAD_MS);
  }

  /**
   * Closes this instance's sockets whose users may no longer be in their room (`accessCheck`); a
   * socket whose check fails (the database does not answer) stays. One re-check at a time.
   */
  private recheckLocal(): Promise<void> {
    const check = this.accessCheck;
    if (!check) return Promise.resolve();
    this.rechecking ??= (async () => {
      for (const hub of [...this.hubs.values()]) {
        for (const { userId, userVersion } of hub.localUsers()) {
          try {
            if (!(await check(hub.roomId, userId, userVersion))) hub.kickOpenedAs(userId, userVersion);
          } catch {
            // The database did not answer: the next tick tries again.
          }
        }
      }
    })().finally(() => {
      this.rechecking = null;
    });
    return this.rechecking;
  }

  /** The heartbeat: this instance's presence and pushes, and forgetting instances long gone. */
  private publishPresence(): void {
    if (!this.clustered()) this.interrupted = true;
    if (this.interrupted) void this.recheckLocal();
    const forgotten = Date.now() - 10 * STALE_AFTER_TICKS * this.tickMs;
    for (const [id, remote] of this.remotes) if (remote.seenAt < forgotten) this.remotes.delete(id);
    this.publishLive();
    this.publishConverter();
    if (!this.clustered()) return;
    const rooms: Record<string, PresenceEntry[]> = {};
    for (const [roomId, hub] of this.hubs) rooms[roomId] = hub.entries();
    this.bus?.publish({ kind: 'presence', rooms });
  }

  /** Applies one event from the bus (the instance's own included). */
  private apply(from: string, event: ClusterEvent): void {
    const own = from === this.bus?.instanceId;
    switch (event.kind) {
      case 'frame':
        this.hubs.get(event.roomId)?.deliver(Buffer.from(event.frame, 'base64'), event.audience, event.except);
        return;
      case 'kick':
        if (event.roomId === null) for (const hub of this.hubs.values()) hub.kickUser(event.userId);
        else this.hubs.get(event.roomId)?.kickUser(event.userId);
        return;
      case 'close-room':
        this.closeLocalRoom(event.roomId);
        return;
      case 'hello':
        if (!own) this.publishPresence();
        return;
      case 'live':
        if (!own) this.heardFrom(from).live = { url: event.url, movies: new Set(event.movies) };
        return;
      case 'converter':
        if (!own) this.heardFrom(from).converterUrl = event.url;
        return;
      case 'keep-conversions':
        this.conversions?.keepOnly(event.roomId, event.movieId);
        return;
      case 'bye':
        this.remotes.delete(from);
        return;
      case 'presence':
        if (!own) this.heardFrom(from).rooms = new Map(Object.entries(event.rooms));
        return;
      case 'room-presence': {
        if (own) return;
        const { rooms } = this.heardFrom(from);
        if (event.connections.length) rooms.set(event.roomId, event.connections);
        else rooms.delete(event.roomId);
        return;
      }
    }
  }

  /** The instance `from` as last heard of, now (created on first word from it). */
  private heardFrom(from: string): RemoteInstance {
    let remote = this.remotes.get(from);
    if (!remote) {
      remote = { seenAt: 0, rooms: new Map<string, PresenceEntry[]>() };
      this.remotes.set(from, remote);
    }
    remote.seenAt = Date.now();
    return remote;
  }
}
