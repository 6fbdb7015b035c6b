/**
 * The room's rules for live streams pushed over RTMP (docs/contract.md §4.5 `publishKey`,
 * docs/live.md): who gets the publish key, which push the server takes, when a broadcast ends, and
 * when an arriving push is played for the room.
 */
import { Permission, RoomStatus } from '@/lib/contract/roles';
import type { TokenService } from '../auth';
import type { Store, UserRecord } from '../db';
import { badRequest, forbidden } from '../errors';
import type { PushTarget } from '../live/rtmp';
import { hasMemberPermission } from './permissions';
import { resolveRoomAccess, subjectOf, type RoomAccess } from './room-access';

/** `POST /api/room/movie/live/publishKey`'s answer (§4.5): push to `rtmp://{host}/{app}/` with `token` as the stream key. */
export interface PublishKey {
  /** Host (and port, when not 1935) an encoder pushes to. */
  host: string;
  /** The RTMP application: the room id. */
  app: string;
  /** The stream key. */
  token: string;
}

/**
 * The publish key of the movie `movieId` for its creator (§4.5). `requestHost` is the request's Host
 * header (which carries the HTTP port, also the RTMP port here). Throws 400 `rtmp is not enabled`,
 * 400 `room or movie not found`, 403 `new publish key error: no permission` for anyone but the movie's
 * creator, 400 `only live movie can get publish key` for a movie that is not an rtmp source.
 */
export async function publishKey(store: Store, tokens: TokenService, access: RoomAccess, movieId: string, rtmpEnabled: boolean, requestHost: string): Promise<PublishKey> {
  if (!rtmpEnabled) throw badRequest('rtmp is not enabled');
  const movie = await store.movies.find(access.room.id, movieId);
  if (!movie || movie.base.isFolder) throw badRequest('room or movie not found');
  if (movie.creatorId !== access.user.id) throw forbidden('new publish key error: no permission');
  if (!movie.base.rtmpSource) throw badRequest('only live movie can get publish key');
  return { host: await publishHost(store, requestHost), app: access.room.id, token: tokens.signPublishKey(access.room.id, movie.id) };
}

/** Where encoders push: `custom_publish_host`, else the host (and port) of the `host` setting, else the request's Host. */
export async function publishHost(store: Store, requestHost: string): Promise<string> {
  const site = await store.settings.get();
  if (site.custom_publish_host.trim()) return site.custom_publish_host.trim();
  if (site.host.trim()) {
    try {
      return new URL(site.host.includes('://') ? site.host : `http://${site.host}`).host;
    } catch {
      // An unparsable `host` setting: fall back to what the browser used.
    }
  }
  return requestHost;
}

/**
 * The movie a push to `rtmp://…/{roomId}/{key}` broadcasts, or null to refuse it: the key must
 * verify for that room and its movie must be broadcastable.
 */
export async function pushTarget(store: Store, tokens: TokenService, roomId: string, key: string): Promise<PushTarget | null> {
  const movieId = tokens.verifyPublishKey(roomId, key);
  if (!movieId || !await isBroadcastable(store, roomId, movieId)) return null;
  return { roomId, movieId };
}

/** Whether `movieId` may be broadcast: it is an rtmp-source movie of `roomId`, and the room is active (not deleted, banned or pending). */
export async function isBroadcastable(store: Store, roomId: string, movieId: string): Promise<boolean> {
  const room = await store.rooms.findById(roomId);
  if (!room || room.status !== RoomStatus.Active) return false;
  const movie = await store.movies.find(roomId, movieId);
  return Boolean(movie && !movie.base.isFolder && movie.base.rtmpSource);
}

/**
 * A push of `movieId` arrived (docs/live.md "Going live"): the broadcast becomes the room's current
 * movie, playing, when the room plays nothing or when the broadcaster (the movie's creator, the only
 * one with its key) may set the current movie (SetCurrentMovie, as `POST /api/room/movie/current`
 * asks of them). Otherwise the room is left as it is, and the stream dialog says who can play it.
 * Returns the broadcaster when the room changed (for the CURRENT frame's sender), else null.
 */
export async function playArrivedBroadcast(store: Store, roomId: string, movieId: string, nowMs: number): Promise<UserRecord | null> {
  const current = await store.rooms.current(roomId);
  if (current?.movieId === movieId) return null;
  const movie = await store.movies.find(roomId, movieId);
  const broadcaster = movie ? await store.users.findById(movie.creatorId) : null;
  if (!movie || !broadcaster) return null;
  let access: RoomAccess;
  try {
    access = await resolveRoomAccess(store, broadcaster, roomId);
  } catch {
    // No longer allowed in the room (banned, removed): the room is not theirs to change.
    return null;
  }
  const mayChange = hasMemberPermission(subjectOf(access), access.settings, Permission.SetCurrentMovie);
  if (current?.movieId && !mayChange) return null;
  await store.rooms.saveCurrent(roomId, { movieId, subPath: '', isPlaying: true, currentTime: 0, playbackRate: 1, lastUpdateMs: nowMs });
  return broadcaster;
}
