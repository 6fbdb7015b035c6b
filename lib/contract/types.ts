/**
 * Wire types of the SyncTV v0.9.11 HTTP contract (docs/contract.md §2, §4, §7).
 * JSON keys are exactly as on the wire (note `createAt` on movies). Time units:
 * envelope `time` is Unix µs; `createdAt`, `joinAt`, `createAt` are Unix ms; `currentTime` is seconds.
 * Used by the client's API functions and by the companion server's handlers.
 */
import type { PlaybackState } from './playback';
import type { MemberRole, MemberStatus, RoomStatus } from './roles';

/** Success envelope `{data, time}`; `data` is omitted when nil (§2.1). `time` is Unix µs. */
export interface Envelope<T> {
  data?: T;
  time: number;
}

/** Error envelope `{error, time}` (§2.1). `time` is Unix µs. */
export interface ErrorEnvelope {
  error: string;
  time: number;
}

/** Common paged list `{total, list}`; `list` may be null on a v0.9.11 server. */
export interface ListResponse<T> {
  total: number;
  list: T[] | null;
}

/** `GET /api/public/settings` (§4.1). */
export interface PublicSettings {
  passwordDisableSignup: boolean;
  emailEnable: boolean;
  emailDisableSignup: boolean;
  emailWhitelistEnabled: boolean;
  emailWhitelist: string[];
  oauth2DisableSignup: boolean;
  guestEnable: boolean;
  p2pZone: string;
  /**
   * Companion-server extensions, absent on a v0.9.11 server (docs/compatibility.md "How the
   * companion server differs"): how many recent chat lines a room replays to a socket that joins; the most rooms a
   * user (not an admin) may create (`user_max_room_count`); whether users may create rooms at all;
   * the site's address as the admin set it (`host`, e.g. `https://watch.example.com`; "" when unset),
   * which share links lead with; whether the server converts films browsers cannot decode
   * (docs/transcode.md: `movie_convert` on and ffmpeg installed).
   */
  chatHistory?: number;
  userMaxRoomCount?: number;
  createRoomDisabled?: boolean;
  siteAddress?: string;
  movieConvert?: boolean;
}

/** Token response of login, signup and password change (§3.1). Banned or pending users get `message` and no token. */
export interface TokenResponse {
  token?: string;
  message?: string;
  role: number;
}

/** `GET /api/user/me` (§4.2). `createdAt` is Unix ms. */
export interface UserInfo {
  id: string;
  username: string;
  email: string;
  createdAt: number;
  role: number;
}

/** RoomListItem (§4.3). `createdAt` is Unix ms. `status` is always 0 in `/api/room/hot`. */
export interface RoomListItem {
  roomId: string;
  roomName: string;
  creatorId: string;
  creator: string;
  viewerCount: number;
  createdAt: number;
  needPassword: boolean;
  status: RoomStatus;
}

/** RoomListItem plus the caller's membership, from `GET /api/user/rooms/joined` (§4.2). */
export interface JoinedRoomListItem extends RoomListItem {
  memberStatus: MemberStatus;
  memberRole: MemberRole;
}

/** Query of the room list routes (§4, conventions). */
export interface RoomListQuery {
  page?: number;
  max?: number;
  keyword?: string;
  search?: 'all' | 'name' | 'creator' | 'id';
  sort?: 'name' | 'createdAt';
  order?: 'asc' | 'desc';
  status?: '' | 'active' | 'pending' | 'banned' | 'all';
}

export type { CreateRoomRequest, SetCurrentRequest } from './requests';

/** `POST /api/room/create` answer (201). */
export interface CreateRoomResponse {
  roomId: string;
  status: RoomStatus;
}

/** `GET /api/room/check` (§4.3). */
export interface RoomCheck {
  name: string;
  creatorId: string;
  creator: string;
  viewerCount: number;
  status: RoomStatus;
  needPassword: boolean;
  enabledGuest: boolean;
}

/** `GET /api/room/joined` (§4.3). */
export interface RoomJoined {
  joined: boolean;
  status: MemberStatus;
  room: RoomCheck;
}

/** Member info: `POST /api/room/login` answer (§4.3). */
export interface RoomLoginResponse {
  status: MemberStatus;
  role: MemberRole;
  permissions: number;
  adminPermissions: number;
}

/** `GET /api/room/me` (§4.3). `joinAt` is Unix ms. */
export interface RoomMe {
  userId: string;
  roomId: string;
  joinAt: number;
  role: MemberRole;
  status: MemberStatus;
  permissions: number;
  adminPermissions: number;
}

/** `GET /api/room/info` (§4.3). `createdAt` and `member.joinAt` are Unix ms. */
export interface RoomInfo {
  id: string;
  name: string;
  needPassword: boolean;
  creator: string;
  creatorId: string;
  createdAt: number;
  status: RoomStatus;
  enabledGuest: boolean;
  member: {
    id: string;
    username: string;
    joinAt: number;
    status: MemberStatus;
    role: MemberRole;
    permissions: number;
    adminPermissions: number;
  };
}

/** A row of `GET /api/room/members` (§4.3). `joinAt` is Unix ms. */
export interface RoomMember {
  userId: string;
  username: string;
  roomId: string;
  joinAt: number;
  onlineCount: number;
  permissions: number;
  adminPermissions: number;
  role: MemberRole;
  status: MemberStatus;
}

/**
 * Query of `GET /api/room/members` and `GET /api/room/admin/members` (§4.3, §4.4). `status` is only
 * read by the admin list: absent means active, `""` every status.
 */
export interface MemberListQuery {
  page?: number;
  max?: number;
  role?: '' | 'member' | 'admin' | 'creator';
  status?: '' | 'active' | 'pending' | 'banned';
  keyword?: string;
  search?: 'all' | 'name' | 'id';
  sort?: 'name' | 'join';
  order?: 'asc' | 'desc';
}

/** RoomSettings (§5.5): snake_case keys, as on the wire. */
export interface RoomSettings {
  user_default_permissions: number;
  guest_permissions: number;
  disable_guest: boolean;
  join_need_review: boolean;
  disable_join_new_user: boolean;
  hidden: boolean;
  can_get_movie_list: boolean;
  can_add_movie: boolean;
  can_delete_movie: boolean;
  can_edit_movie: boolean;
  can_set_current_movie: boolean;
  can_set_current_status: boolean;
  can_send_chat_message: boolean;
  /**
   * Companion extension (docs/transcode.md "Converting automatically"): when a movie starts, the
   * server converts it if browsers cannot play it as it is. Absent on a v0.9.11 server, which refuses
   * the key (400 `no such column: auto_convert`).
   */
  auto_convert?: boolean;
}

/** MovieBase (§7.1), the request body of push and the `base` of a movie. */
export interface MovieBase {
  url: string;
  name: string;
  type?: string;
  live?: boolean;
  proxy?: boolean;
  /**
   * Companion extension (docs/transcode.md): the server converts the movie for the room, which plays
   * `/api/room/movie/convert/<movie>/index.m3u8` (HLS, MPEG-TS segments) instead of `url`.
   */
  convert?: boolean;
  rtmpSource?: boolean;
  headers?: Record<string, string>;
  subtitles?: Record<string, { url: string; type: string }>;
  moreSources?: { name: string; type: string; url: string }[];
  danmu?: string;
  streamDanmu?: string;
  isFolder?: boolean;
  parentId?: string;
  vendorInfo?: {
    vendor: '' | 'bilibili' | 'alist' | 'emby';
    backend?: string;
    bilibili?: { bvid?: string; cid?: number; epid?: number; quality?: number; shared?: boolean };
    alist?: { path: string; password?: string };
    emby?: { path: string; transcode?: boolean };
  };
  /**
   * Companion extension (docs/vendors.md "Audio track and bitrate", docs/transcode.md "Choices"),
   * on an Emby or Jellyfin movie or a converted movie of `GET /current` only: what a viewer may ask
   * the server to convert the main source to, as query parameters of `url`: `&audio=<index>` (one of
   * `audioTracks`), `&maxBitrate=<bits/s>` (one of `maxBitrates`) and, for a converted movie,
   * `&subtitle=<index>` (one of `burnSubtitles`: an image subtitle drawn into the picture). Any of
   * them makes the source the server's HLS (`type` m3u8).
   */
  mediaChoices?: {
    audioTracks: { index: number; name: string; language: string; default: boolean }[];
    maxBitrates: number[];
    burnSubtitles?: { index: number; name: string; language: string }[];
  };
}

/** Movie (§7.2). The key is `createAt` (sic, Unix ms). */
/**
 * `POST /api/room/movie/live/publishKey`'s data (§4.5): an encoder pushes to `rtmp://{host}/{app}/`
 * with `token` as its stream key; `app` is the room id.
 */
export interface PublishKey {
  host: string;
  app: string;
  token: string;
}

export interface Movie {
  id: string;
  creator: string;
  creatorId: string;
  subPath: string;
  base: MovieBase;
  createAt: number;
}

/** What push returns: the stored record (§4.5). */
export interface PushedMovie {
  id: string;
  creatorId: string;
  base: MovieBase;
}

/** A breadcrumb entry of a movie list (§4.5). */
export interface MoviePath {
  name: string;
  id: string;
  subPath: string;
}

/** `GET /api/room/movie/movies` (§4.5). */
export interface MovieList {
  movies: Movie[] | null;
  paths: MoviePath[];
  total: number;
  dynamic: boolean;
}

/**
 * Playback status in JSON (§7.3). The first three keys are omitempty on the wire, so a client must
 * default them to false/0 (lib/sync/status.ts turns it into a PlaybackState). `currentTime` is
 * seconds; `lastUpdate` is an RFC 3339 server time.
 */
export interface PlaybackStatus extends Partial<PlaybackState> {
  lastUpdate: string;
}

/** `GET /api/room/movie/current` (§7.3). `expireId` is a uint64 (CRC32 of the movie id by default). */
export interface CurrentMovie {
  movie: Movie;
  status: PlaybackStatus;
  expireId: number;
}


/** The vendors whose accounts a user binds (docs/vendors.md). */
export type BindableVendor = 'alist' | 'emby';

/** One bound AList, Emby or Jellyfin server (`GET /api/vendor/{alist,emby}/binds`, docs/vendors.md). */
export interface VendorServer {
  serverId: string;
  host: string;
}

/** A crumb of a vendor picker (`POST /api/vendor/alist/list`): `path` is `<serverId>/<path>`, "" for the top. */
export interface VendorPath {
  name: string;
  path: string;
}

/** An entry of a vendor picker. `size` in bytes; `modified` RFC 3339 ("" when unknown); `type` Emby's item type (Movie, Series, Season, Episode …). */
export interface VendorItem {
  name: string;
  path: string;
  isDir: boolean;
  size?: number;
  modified?: string;
  type?: string;
}

/** `POST /api/vendor/alist/list` (docs/vendors.md). */
export interface VendorList {
  paths: VendorPath[];
  items: VendorItem[] | null;
  total: number;
}

/** `GET /api/vendor/{alist,emby}/me` (docs/vendors.md): AList's user has `username` and `basePath`, Emby's `name`. */
export interface VendorMe {
  isLogin: boolean;
  info?: { id: number | string; username?: string; name?: string; basePath?: string; role?: number; permission?: number; disabled?: boolean };
}

/**
 * `GET /api/vendor/bilibili/me` (docs/vendors.md "bilibili"): whether the user's bilibili account is
 * bound and bilibili still takes it, and who it is. `expired` (companion extension): an account is
 * bound but bilibili no longer takes its sign-in.
 */
export interface BilibiliMe {
  isLogin: boolean;
  expired?: boolean;
  info?: { username: string; face: string; isVip: boolean };
}

/** A QR sign-in's state (`POST /api/vendor/bilibili/login/qr`). */
export type BilibiliQrStatus = 'notScanned' | 'scanned' | 'expired' | 'success';

/**
 * One video of a bilibili parse: a page of a video (`bvid`, `cid`), an episode of a series (with
 * `epid`), or a live room (`live`, `cid` = the room's id). Ids are JSON numbers.
 */
export interface BilibiliVideoInfo {
  bvid?: string;
  cid?: number;
  epid?: number;
  name: string;
  coverImage: string;
  live: boolean;
}

/** `POST /api/vendor/bilibili/parse`: the title, the uploader or cast, and the videos. */
export interface BilibiliPage {
  title: string;
  actors: string;
  videoInfos: BilibiliVideoInfo[];
}
