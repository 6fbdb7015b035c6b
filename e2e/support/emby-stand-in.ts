/**
 * A stand-in for a Jellyfin (10.11: the API at the root) or Emby (the API under `/emby`) server, for
 * tests (docs/vendors.md "Testing"): no media server can be installed here, so this answers the
 * calls the companion server makes with the shapes of Jellyfin's API (as typed in `@jellyfin/sdk`):
 * `System/Info/Public`, `Users/AuthenticateByName` (401 for a wrong password), the user, `Views`,
 * `Items` (paged, searched), one item, `Ancestors`, `PlaybackInfo` (media sources with their
 * streams), a file's direct stream with HTTP Range (the test media), text subtitles as WebVTT, and
 * for a file that needs converting an HLS transcode (the test media's HLS: master, variant,
 * segments, Jellyfin's URLs) that `DELETE /Videos/ActiveEncodings` stops.
 * Every call but the public ones needs the token (`X-Emby-Token` or the `Authorization` header's
 * `Token`). The library: Movies (Clip, with two media sources, two audio tracks and an SRT; a film
 * that needs converting; a disc image the server neither plays nor converts) and Shows (a series,
 * its season, two episodes).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import send from '@fastify/send';
import { listenOnLoopback, readJsonBody } from './listen';

export interface EmbyStandInOptions {
  /** `jellyfin` answers at the root (10.11 and later), `emby` under `/emby` only. */
  flavor: 'jellyfin' | 'emby';
  username: string;
  password: string;
  /** The test media folder (`e2e/media`). */
  mediaDir: string;
  host?: string;
}

export interface EmbyStandIn {
  url: string;
  serverId: string;
  /** Paths asked for so far (without the prefix), oldest first. */
  calls: string[];
  /** Makes every token issued so far refused with 401. */
  expireTokens(): void;
  /** The access tokens that are valid now. */
  tokens(): string[];
  /** The play sessions whose transcode runs (its master playlist fetched, not stopped). */
  transcodes(): string[];
  /** The play sessions stopped by `DELETE /Videos/ActiveEncodings`, oldest first. */
  stopped: string[];
  /** The bodies of `PlaybackInfo` asked so far (the item id as `itemId`, without the device profile). */
  playbackRequests: Record<string, unknown>[];
  close(): Promise<void>;
}

interface Item {
  Id: string;
  Name: string;
  Type: string;
  IsFolder: boolean;
  ParentId: string;
  CollectionType?: string;
}

const LIBRARY: Item[] = [
  { Id: 'v-movies', Name: 'Movies', Type: 'CollectionFolder', IsFolder: true, ParentId: 'root', CollectionType: 'movies' },
  { Id: 'v-shows', Name: 'Shows', Type: 'CollectionFolder', IsFolder: true, ParentId: 'root', CollectionType: 'tvshows' },
  { Id: 'm-clip', Name: 'Clip', Type: 'Movie', IsFolder: false, ParentId: 'v-movies' },
  { Id: 'm-hevc', Name: 'HEVC film', Type: 'Movie', IsFolder: false, ParentId: 'v-movies' },
  { Id: 'm-iso', Name: 'Disc image', Type: 'Movie', IsFolder: false, ParentId: 'v-movies' },
  { Id: 's-show', Name: 'Show', Type: 'Series', IsFolder: true, ParentId: 'v-shows' },
  { Id: 'se-1', Name: 'Season 1', Type: 'Season', IsFolder: true, ParentId: 's-show' },
  { Id: 'e-1', Name: 'Episode 1', Type: 'Episode', IsFolder: false, ParentId: 'se-1' },
  { Id: 'e-2', Name: 'Episode 2', Type: 'Episode', IsFolder: false, ParentId: 'se-1' },
];
const ROOT: Item = { Id: 'root', Name: 'Media Folders', Type: 'UserRootFolder', IsFolder: true, ParentId: '' };

const stream = (index: number, type: string, codec: string, extra: Record<string, unknown> = {}) => ({ Index: index, Type: type, Codec: codec, IsExternal: false, IsDefault: index <= 1, ...extra });

/** PlaybackInfo's media sources of a file item (Jellyfin's shape); `transcodeQuery` is what a transcode's URL carries. */
function mediaSources(itemId: string, transcodeQuery = '') {
  const streams = [
    stream(0, 'Video', 'h264'),
    stream(1, 'Audio', 'aac', { Language: 'eng', DisplayTitle: 'English - AAC - Stereo' }),
    stream(2, 'Audio', 'aac', { Language: 'jpn', DisplayTitle: 'Japanese - AAC - Stereo', IsDefault: false }),
    stream(3, 'Subtitle', 'subrip', { Language: 'eng', DisplayTitle: 'English (SRT)', IsExternal: true, IsTextSubtitleStream: true, DeliveryMethod: 'External' }),
  ];
  if (itemId === 'm-hevc') {
    return [{ Id: 'ms-hevc', Name: 'HEVC film', Container: 'mkv', SupportsDirectPlay: false, SupportsDirectStream: false, SupportsTranscoding: true, TranscodingUrl: `/videos/${itemId}/master.m3u8?MediaSourceId=ms-hevc&${transcodeQuery}`, TranscodingSubProtocol: 'hls', TranscodingContainer: 'ts', MediaStreams: [stream(0, 'Video', 'hevc'), stream(1, 'Audio', 'eac3')] }];
  }
  if (itemId === 'm-iso') {
    return [{ Id: 'ms-iso', Name: 'Disc image', Container: 'iso', SupportsDirectPlay: false, SupportsDirectStream: false, SupportsTranscoding: false, MediaStreams: [stream(0, 'Video', 'mpeg2video')] }];
  }
  const main = { Id: `ms-${itemId}`, Name: itemId === 'm-clip' ? 'Clip 1080p' : itemId, Container: 'mp4', Bitrate: 5_000_000, SupportsDirectPlay: true, SupportsDirectStream: true, SupportsTranscoding: true, MediaStreams: streams };
  return itemId === 'm-clip' ? [main, { ...main, Id: 'ms-clip-cut', Name: "Clip (director's cut)", MediaStreams: streams.slice(0, 2) }] : [main];
}

/** Starts the stand-in on a random port. */
export async function startEmbyStandIn(options: EmbyStandInOptions): Promise<EmbyStandIn> {
  const prefix = options.flavor === 'emby' ? '/emby' : '';
  const serverId = crypto.randomBytes(16).toString('hex');
  const userId = crypto.randomBytes(16).toString('hex');
  const tokens = new Set<string>();
  const calls: string[] = [];
  const clip = path.join(options.mediaDir, 'mp4', 'clip.mp4');
  const srt = fs.readFileSync(path.join(options.mediaDir, 'subs', 'clip.srt'), 'utf8');
  const clipPlaylist = fs.readFileSync(path.join(options.mediaDir, 'clip', 'index.m3u8'), 'utf8');
  const transcodes = new Set<string>();
  const playbackRequests: Record<string, unknown>[] = [];
  const stopped: string[] = [];
  const vtt = `WEBVTT\n\n${srt.replace(/(\d\d:\d\d:\d\d),(\d\d\d)/g, '$1.$2')}`;

  const tokenOf = (request: IncomingMessage): string => {
    const header = request.headers['x-emby-token'];
    if (typeof header === 'string') return header;
    return /Token="([^"]+)"/.exec(`${request.headers.authorization ?? ''} ${request.headers['x-emby-authorization'] ?? ''}`)?.[1] ?? '';
  };
  const json = (response: ServerResponse, status: number, body: unknown) => response.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
  const byId = (id: string) => (id === 'root' ? ROOT : LIBRARY.find((item) => item.Id === id));

  const handle = (request: IncomingMessage, response: ServerResponse, route: string, url: URL, body: Record<string, unknown>) => {
    if (route === '/System/Info/Public') {
      return json(response, 200, { Id: serverId, ServerName: 'Stand-in', Version: options.flavor === 'emby' ? '4.8.10.0' : '10.11.2', ProductName: options.flavor === 'emby' ? 'Emby Server' : 'Jellyfin Server', StartupWizardCompleted: true });
    }
    if (route === '/Users/AuthenticateByName' && request.method === 'POST') {
      if (!/MediaBrowser .*Client="/.test(`${request.headers.authorization ?? ''}${request.headers['x-emby-authorization'] ?? ''}`)) return json(response, 400, 'Authorization header missing');
      if (body.Username !== options.username || body.Pw !== options.password) return response.writeHead(401).end('Error processing request.');
      const token = crypto.randomBytes(16).toString('hex');
      tokens.add(token);
      return json(response, 200, { User: { Id: userId, Name: options.username, ServerId: serverId, Policy: { IsAdministrator: false } }, AccessToken: token, ServerId: serverId, SessionInfo: {} });
    }
    if (!tokens.has(tokenOf(request))) return response.writeHead(401).end();
    let match: RegExpExecArray | null;
    if (route === `/Users/${userId}`) return json(response, 200, { Id: userId, Name: options.username, ServerId: serverId, Policy: { IsAdministrator: false } });
    if (route === `/Users/${userId}/Views`) {
      const views = LIBRARY.filter((item) => item.ParentId === 'root');
      return json(response, 200, { Items: views, TotalRecordCount: views.length, StartIndex: 0 });
    }
    if (route === `/Users/${userId}/Items`) {
      const parentId = url.searchParams.get('ParentId') ?? '';
      const term = (url.searchParams.get('SearchTerm') ?? '').toLowerCase();
      const under = (item: Item, ancestor: string): boolean => item.ParentId === ancestor || (byId(item.ParentId) ? under(byId(item.ParentId)!, ancestor) : false);
      const found = term
        ? LIBRARY.filter((item) => item.Name.toLowerCase().includes(term) && (!parentId || under(item, parentId)) && item.Type !== 'CollectionFolder')
        : LIBRARY.filter((item) => item.ParentId === (parentId || 'root'));
      const start = Number(url.searchParams.get('StartIndex') ?? 0);
      const limit = Number(url.searchParams.get('Limit') ?? found.length) || found.length;
      return json(response, 200, { Items: found.slice(start, start + limit), TotalRecordCount: found.length, StartIndex: start });
    }
    if ((match = new RegExp(`^/Users/${userId}/Items/([\\w-]+)$`).exec(route))) {
      const item = byId(match[1]);
      return item ? json(response, 200, item) : response.writeHead(404).end();
    }
    if ((match = /^\/Items\/([\w-]+)\/Ancestors$/.exec(route))) {
      const chain: Item[] = [];
      for (let item = byId(match[1]); item && item.ParentId; ) {
        item = byId(item.ParentId);
        if (item) chain.push(item);
      }
      return json(response, 200, chain);
    }
    if ((match = /^\/Items\/([\w-]+)\/PlaybackInfo$/.exec(route)) && request.method === 'POST') {
      const item = byId(match[1]);
      if (!item || item.IsFolder) return response.writeHead(404).end();
      if (!body.DeviceProfile) return json(response, 400, 'DeviceProfile missing');
      // As Jellyfin does, the transcode's URL carries the play session and the caller's token.
      const playSessionId = crypto.randomBytes(8).toString('hex');
      const transcodeQuery = new URLSearchParams({ DeviceId: 'x', VideoCodec: 'h264', AudioCodec: 'aac', PlaySessionId: playSessionId, api_key: tokenOf(request) });
      playbackRequests.push({ itemId: item.Id, ...body, DeviceProfile: undefined });
      if (body.EnableDirectStream === false) {
        // A client's choice (Jellyfin's own ask it so): that source, converted with its audio track and bitrate.
        if (typeof body.AudioStreamIndex === 'number') transcodeQuery.set('AudioStreamIndex', String(body.AudioStreamIndex));
        if (typeof body.MaxStreamingBitrate === 'number') transcodeQuery.set('VideoBitrate', String(body.MaxStreamingBitrate));
        const chosen = mediaSources(item.Id)
          .filter((source) => !body.MediaSourceId || source.Id === body.MediaSourceId)
          .map((source) => ({ ...source, SupportsDirectPlay: false, SupportsDirectStream: false, TranscodingUrl: `/videos/${item.Id}/master.m3u8?MediaSourceId=${source.Id}&${transcodeQuery}` }));
        return json(response, 200, { MediaSources: chosen, PlaySessionId: playSessionId });
      }
      return json(response, 200, { MediaSources: mediaSources(item.Id, transcodeQuery.toString()), PlaySessionId: playSessionId });
    }
    // The HLS transcode (the test media's HLS stands in for ffmpeg's output): the master playlist,
    // its one variant and the segments, each with the query of the master, as Jellyfin writes them.
    if ((match = /^\/videos\/([\w-]+)\/master\.m3u8$/i.exec(route))) {
      transcodes.add(url.searchParams.get('PlaySessionId') ?? '');
      return response.writeHead(200, { 'Content-Type': 'application/vnd.apple.mpegurl' }).end(`#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1500000,CODECS="avc1.64001f,mp4a.40.2"\nmain.m3u8?${url.searchParams}\n`);
    }
    if ((match = /^\/videos\/([\w-]+)\/main\.m3u8$/i.exec(route))) {
      const playlist = clipPlaylist.replace(/^seg(\d+)\.m2ts$/gm, (_line, n: string) => `hls1/main/${Number(n)}.ts?${url.searchParams}`);
      return response.writeHead(200, { 'Content-Type': 'application/vnd.apple.mpegurl' }).end(playlist);
    }
    if ((match = /^\/videos\/([\w-]+)\/hls1\/main\/(\d+)\.ts$/i.exec(route))) {
      const file = path.join(options.mediaDir, 'clip', `seg${match[2].padStart(3, '0')}.m2ts`);
      if (!fs.existsSync(file)) return response.writeHead(404).end();
      return response.writeHead(200, { 'Content-Type': 'video/mp2t' }).end(fs.readFileSync(file));
    }
    if (route === '/Videos/ActiveEncodings' && request.method === 'DELETE') {
      const playSessionId = url.searchParams.get('PlaySessionId') ?? '';
      if (!url.searchParams.get('DeviceId') || !playSessionId) return response.writeHead(400).end();
      transcodes.delete(playSessionId);
      stopped.push(playSessionId);
      return response.writeHead(204).end();
    }
    if ((match = /^\/Videos\/([\w-]+)\/stream(\.\w+)?$/.exec(route))) {
      if (url.searchParams.get('Static') !== 'true' || !mediaSources(match[1]).some((source) => source.Id === url.searchParams.get('MediaSourceId') && source.SupportsDirectStream)) return response.writeHead(400).end();
      void send(request, path.basename(clip), { root: path.dirname(clip) }).then(({ statusCode, headers, stream: body }) => {
        response.writeHead(statusCode, { ...headers, 'Content-Type': 'video/mp4' });
        body.pipe(response);
      });
      return;
    }
    if ((match = /^\/Videos\/([\w-]+)\/([\w-]+)\/Subtitles\/(\d+)\/0\/Stream\.vtt$/.exec(route))) {
      return response.writeHead(200, { 'Content-Type': 'text/vtt' }).end(vtt);
    }
    return response.writeHead(404).end();
  };

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    if (prefix && !url.pathname.startsWith(`${prefix}/`)) return void response.writeHead(404).end();
    const route = url.pathname.slice(prefix.length);
    calls.push(route);
    void readJsonBody(request).then((body) => {
      if (!body) json(response, 400, 'invalid json');
      else handle(request, response, route, url, body);
    });
  });
  const listening = await listenOnLoopback(server, options.host);
  return {
    url: listening.origin,
    serverId,
    calls,
    expireTokens: () => tokens.clear(),
    tokens: () => [...tokens],
    transcodes: () => [...transcodes],
    stopped,
    playbackRequests,
    close: listening.close,
  };
}
