/**
 * A client of the Emby and Jellyfin HTTP API (docs/vendors.md "Emby and Jellyfin"): which of the two
 * answers at a host and under which prefix (Jellyfin 10.11 and later answer at the root; Emby and
 * older Jellyfin under `/emby`), sign-in by user name and password, the signed-in user, the
 * libraries and their items (folders, series, seasons, episodes, films), a file's media sources
 * (`PlaybackInfo`) with the server's HLS transcode of those a browser cannot play, and stopping a
 * transcode. Calls go through ./http.ts (the proxy's address guard, a deadline); the access
 * token is sent in a header, never in a URL this module returns to a browser.
 */
import { HttpError } from '../errors';
import type { UpstreamPolicy } from '../proxy/upstream';
import { callVendor, VENDOR_INVALID_ANSWER } from './http';

/** How this server names itself to Emby and Jellyfin (their `Authorization: MediaBrowser …` header). */
const DEVICE_ID = 'synctv-companion';
const CLIENT = `Client="SyncTV", Device="SyncTV server", DeviceId="${DEVICE_ID}", Version="0.9.11"`;

/** 502 when neither Emby nor Jellyfin answers at a host being bound (companion text). */
export const EMBY_NOT_AT_HOST = 'emby: no Emby or Jellyfin answers at this address';

/** 400 when Emby or Jellyfin no longer takes the stored token (companion text). */
export const EMBY_SESSION_EXPIRED = 'emby: the session expired, sign in again';

/** A server found at a host: its API prefix ("" or "/emby"), id, name, version and product. */
export interface EmbyServer {
  prefix: '' | '/emby';
  serverId: string;
  name: string;
  version: string;
  /** "Jellyfin Server", "Emby Server", … */
  product: string;
}

/** A session: the host, its prefix, the user's id and access token. */
export interface EmbySession {
  host: string;
  prefix: '' | '/emby';
  userId: string;
  token: string;
}

/** An item of a library: a folder, series, season, episode, film, … (`Type` as the server names it). */
export interface EmbyItem {
  id: string;
  name: string;
  type: string;
  isFolder: boolean;
}

/** One stream of a media source (`MediaStreams`): `index` is the server's, `type` Video / Audio / Subtitle. */
export interface EmbyStream {
  index: number;
  type: string;
  codec: string;
  language: string;
  title: string;
  isExternal: boolean;
  isDefault: boolean;
}

/** One media source of an item (`PlaybackInfo`). */
export interface EmbyMediaSource {
  id: string;
  name: string;
  container: string;
  directStream: boolean;
  /**
   * The server's HLS transcode of the source for the device profile (`TranscodingUrl`, a path under
   * the API prefix ending in `master.m3u8?…`), its `api_key`/`ApiKey` removed (the token goes in a
   * header); "" when the server does not convert it.
   */
  transcodingUrl: string;
  /** The play session the transcode belongs to (`PlaySessionId` of the answer), to stop it. */
  playSessionId: string;
  /** The source's bitrate (bits/s; 0 when the server does not say). */
  bitrate: number;
  streams: EmbyStream[];
}

/**
 * What a viewer asks the media server to convert a source to (docs/vendors.md "Audio track and
 * bitrate"): `audioStreamIndex` an Audio stream's `index`, `maxBitrate` in bits/s; null = the
 * server's choice.
 */
export interface EmbyChoice {
  mediaSourceId: string;
  audioStreamIndex: number | null;
  maxBitrate: number | null;
}

/** Removes the access token from a URL's query (`api_key`, `ApiKey`, any case): the token goes in a header. */
export function withoutApiKey(url: string): string {
  const mark = url.indexOf('?');
  if (mark < 0) return url;
  const path = url.slice(0, mark);
  const params = new URLSearchParams(url.slice(mark + 1));
  for (const key of [...params.keys()]) if (/^api_?key$/i.test(key)) params.delete(key);
  return params.size > 0 ? `${path}?${params}` : path;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const number = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
const list = (value: unknown): Record<string, unknown>[] => (Array.isArray(value) ? (value as Record<string, unknown>[]) : []);

function itemOf(raw: Record<string, unknown>): EmbyItem {
  return { id: text(raw.Id), name: text(raw.Name), type: text(raw.Type), isFolder: raw.IsFolder === true };
}

/** The Emby and Jellyfin API, under the address guard `policy`. */
export class EmbyClient {
  constructor(private readonly policy: () => Promise<UpstreamPolicy>) {}

  /** One call; `token` in the headers when given. Throws 400 EMBY_SESSION_EXPIRED on 401, 400 `emby: <status>` on other refusals. */
  private async call(base: { host: string; prefix: string }, method: 'GET' | 'POST' | 'DELETE', path: string, options: { token?: string; body?: unknown; query?: Record<string, string | number | undefined> } = {}): Promise<Record<string, unknown>> {
    const url = new URL(`${base.host}${base.prefix}${path}`);
    for (const [key, value] of Object.entries(options.query ?? {})) if (value !== undefined && value !== '') url.searchParams.set(key, String(value));
    const authorization = `MediaBrowser ${CLIENT}${options.token ? `, Token="${options.token}"` : ''}`;
    const headers: Record<string, string> = { Authorization: authorization, 'X-Emby-Authorization': authorization };
    if (options.token) headers['X-Emby-Token'] = options.token;
    const answer = await callVendor({ method, url: url.href, headers, body: options.body }, await this.policy());
    if (answer.status === 401) throw new HttpError(400, options.token ? EMBY_SESSION_EXPIRED : 'emby: user name or password is incorrect');
    if (answer.status === 404) throw new HttpError(400, 'emby: not found');
    if (answer.status >= 400) throw new HttpError(400, `emby: the server answered ${answer.status}`);
    if (answer.body !== null && typeof answer.body !== 'object') throw new HttpError(502, VENDOR_INVALID_ANSWER);
    return (answer.body ?? {}) as Record<string, unknown>;
  }

  /**
   * Which server answers at `host`: Jellyfin 10.11 and later at the root, Emby and older Jellyfin
   * under `/emby` (both are tried, the root first). Throws 502 EMBY_NOT_AT_HOST when neither
   * answers as Emby or Jellyfin.
   */
  async discover(host: string): Promise<EmbyServer> {
    for (const prefix of ['', '/emby'] as const) {
      try {
        const info = await this.call({ host, prefix }, 'GET', '/System/Info/Public');
        if (text(info.Id)) return { prefix, serverId: text(info.Id), name: text(info.ServerName), version: text(info.Version), product: text(info.ProductName) };
      } catch (error) {
        // Not there under this prefix (404, a web page, another answer): try the next; the guard's
        // refusal and an unreachable host stop here.
        if (!(error instanceof HttpError) || !(error.message.startsWith('emby: ') || error.message === VENDOR_INVALID_ANSWER)) throw error;
      }
    }
    throw new HttpError(502, EMBY_NOT_AT_HOST);
  }

  /** Signs in (`/Users/AuthenticateByName`). Throws 400 `emby: user name or password is incorrect`. */
  async login(host: string, prefix: '' | '/emby', username: string, password: string): Promise<{ token: string; userId: string; serverId: string }> {
    const answer = await this.call({ host, prefix }, 'POST', '/Users/AuthenticateByName', { body: { Username: username, Pw: password } });
    const user = (answer.User ?? {}) as Record<string, unknown>;
    const token = text(answer.AccessToken);
    if (!token || !text(user.Id)) throw new HttpError(502, VENDOR_INVALID_ANSWER);
    return { token, userId: text(user.Id), serverId: text(answer.ServerId) || text(user.ServerId) };
  }

  /** The signed-in user. */
  async me(session: EmbySession): Promise<{ id: string; name: string; serverId: string; isAdministrator: boolean }> {
    const user = await this.call(session, 'GET', `/Users/${session.userId}`, { token: session.token });
    const policy = (user.Policy ?? {}) as Record<string, unknown>;
    return { id: text(user.Id), name: text(user.Name), serverId: text(user.ServerId), isAdministrator: policy.IsAdministrator === true };
  }

  /** The user's libraries (`/Users/{id}/Views`). */
  async views(session: EmbySession): Promise<{ items: EmbyItem[]; total: number }> {
    const answer = await this.call(session, 'GET', `/Users/${session.userId}/Views`, { token: session.token });
    const items = list(answer.Items).map(itemOf);
    return { items, total: number(answer.TotalRecordCount) || items.length };
  }

  /**
   * One page of a folder's items, or of a search under it (`searchTerm`, recursive), sorted by name
   * (episodes in their order). `startIndex` from 0.
   */
  async items(session: EmbySession, request: { parentId: string; startIndex: number; limit: number; searchTerm: string }): Promise<{ items: EmbyItem[]; total: number }> {
    const answer = await this.call(session, 'GET', `/Users/${session.userId}/Items`, {
      token: session.token,
      query: {
        ParentId: request.parentId,
        StartIndex: request.startIndex,
        Limit: request.limit,
        SearchTerm: request.searchTerm || undefined,
        Recursive: request.searchTerm ? 'true' : undefined,
        SortBy: 'ParentIndexNumber,IndexNumber,SortName',
      },
    });
    return { items: list(answer.Items).map(itemOf), total: number(answer.TotalRecordCount) };
  }

  /** An item itself (`/Users/{id}/Items/{itemId}`). */
  async item(session: EmbySession, itemId: string): Promise<EmbyItem> {
    return itemOf(await this.call(session, 'GET', `/Users/${session.userId}/Items/${itemId}`, { token: session.token }));
  }

  /** The folders above an item, nearest first (`/Items/{id}/Ancestors`). */
  async ancestors(session: EmbySession, itemId: string): Promise<EmbyItem[]> {
    const answer = await this.call(session, 'GET', `/Items/${itemId}/Ancestors`, { token: session.token, query: { UserId: session.userId } });
    return (Array.isArray(answer) ? (answer as Record<string, unknown>[]) : list((answer as { Items?: unknown }).Items)).map(itemOf);
  }

  /**
   * The media sources of a file (`POST /Items/{id}/PlaybackInfo`), with what a browser plays as the
   * device profile; with `choice`, that one source converted (direct play and stream off) with the
   * audio track and the bitrate asked for, as Jellyfin's and Emby's own clients ask.
   */
  async playbackInfo(session: EmbySession, itemId: string, choice?: EmbyChoice): Promise<EmbyMediaSource[]> {
    const body = choice
      ? {
          DeviceProfile: BROWSER_PROFILE,
          MediaSourceId: choice.mediaSourceId,
          AudioStreamIndex: choice.audioStreamIndex ?? undefined,
          MaxStreamingBitrate: choice.maxBitrate ?? undefined,
          EnableDirectPlay: false,
          EnableDirectStream: false,
          EnableTranscoding: true,
          AllowVideoStreamCopy: true,
          AllowAudioStreamCopy: true,
        }
      : { DeviceProfile: BROWSER_PROFILE };
    const answer = await this.call(session, 'POST', `/Items/${itemId}/PlaybackInfo`, { token: session.token, query: { UserId: session.userId }, body });
    return list(answer.MediaSources).map((source) => ({
      id: text(source.Id),
      name: text(source.Name),
      container: text(source.Container).split(',')[0],
      directStream: source.SupportsDirectStream === true || source.SupportsDirectPlay === true,
      transcodingUrl: source.SupportsTranscoding === true && text(source.TranscodingUrl).startsWith('/') ? withoutApiKey(text(source.TranscodingUrl)) : '',
      playSessionId: text(answer.PlaySessionId),
      bitrate: number(source.Bitrate),
      streams: list(source.MediaStreams).map((stream) => ({
        index: number(stream.Index),
        type: text(stream.Type),
        codec: text(stream.Codec),
        language: text(stream.Language),
        title: text(stream.DisplayTitle) || text(stream.Title),
        isExternal: stream.IsExternal === true,
        isDefault: stream.IsDefault === true,
      })),
    }));
  }

  /** The URL of a media source's file as stored (direct stream), for this server to fetch with `token` in a header. */
  directStreamUrl(session: EmbySession, itemId: string, source: EmbyMediaSource): string {
    const query = new URLSearchParams({ Static: 'true', MediaSourceId: source.id });
    return `${session.host}${session.prefix}/Videos/${itemId}/stream${source.container ? `.${source.container}` : ''}?${query}`;
  }

  /** The URL of a source's HLS transcode (its master playlist), for this server to fetch with `token` in a header; "" when there is none. */
  transcodeUrl(session: EmbySession, source: EmbyMediaSource): string {
    return source.transcodingUrl ? `${session.host}${session.prefix}${source.transcodingUrl}` : '';
  }

  /** Stops the server's transcodes of a play session (`DELETE /Videos/ActiveEncodings`). */
  async stopTranscode(session: EmbySession, playSessionId: string): Promise<void> {
    await this.call(session, 'DELETE', '/Videos/ActiveEncodings', { token: session.token, query: { DeviceId: DEVICE_ID, PlaySessionId: playSessionId } });
  }

  /** The URL of a text subtitle stream as WebVTT. */
  subtitleUrl(session: EmbySession, itemId: string, source: EmbyMediaSource, streamIndex: number): string {
    return `${session.host}${session.prefix}/Videos/${itemId}/${source.id}/Subtitles/${streamIndex}/0/Stream.vtt`;
  }

  /** The headers that authorize a fetch of those URLs. */
  authHeaders(session: EmbySession): Record<string, string> {
    const authorization = `MediaBrowser ${CLIENT}, Token="${session.token}"`;
    return { Authorization: authorization, 'X-Emby-Authorization': authorization, 'X-Emby-Token': session.token };
  }
}

/** What a browser plays, as the device profile of `PlaybackInfo` (direct play of MP4/WebM with H.264/VP9/AV1 and AAC/MP3/Opus). */
const BROWSER_PROFILE = {
  MaxStreamingBitrate: 120_000_000,
  DirectPlayProfiles: [
    { Container: 'mp4,m4v', Type: 'Video', VideoCodec: 'h264,vp9,av1', AudioCodec: 'aac,mp3,opus,flac' },
    { Container: 'webm', Type: 'Video', VideoCodec: 'vp8,vp9,av1', AudioCodec: 'vorbis,opus' },
  ],
  TranscodingProfiles: [{ Container: 'ts', Type: 'Video', VideoCodec: 'h264', AudioCodec: 'aac', Protocol: 'hls', Context: 'Streaming' }],
  SubtitleProfiles: [
    { Format: 'vtt', Method: 'External' },
    { Format: 'srt', Method: 'External' },
    { Format: 'ass', Method: 'External' },
  ],
};
