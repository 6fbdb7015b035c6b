/**
 * What a pushed MovieBase may be on this server (docs/contract.md §7.1), as a pure policy: the
 * contract's checks (`url too long`, `empty name`, `type too long`, name truncation) and this
 * server's playability checks. The companion server has no vendor backends, so vendor movies are
 * refused with a clear 400 instead of being stored unplayable; RTMP movies need its ingest on; a proxied
 * movie needs the proxy switched on and a public address (docs/security.md).
 */
import ipaddr from 'ipaddr.js';
import type { z } from 'zod/mini';
import type { MovieBaseRequest } from '@/lib/contract/requests';
import type { MovieBase } from '@/lib/contract/types';
import { byteLength, normalizeName, validateMovieBase } from '@/lib/contract/validation';
import { badRequest } from '../errors';

/** A MovieBase as decoded from a request body. */
export type MovieBaseInput = z.output<typeof MovieBaseRequest>;

/** Names longer than this many bytes are cut to 253 bytes plus "..." (§7.1). */
const MAX_NAME_BYTES = 256;
const TRUNCATED_NAME_BYTES = 253;

/** Cuts `name` to at most `maxBytes` UTF-8 bytes without splitting a character. */
function truncateBytes(name: string, maxBytes: number): string {
  let bytes = 0;
  let end = 0;
  for (const char of name) {
    const size = byteLength(char);
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += char.length;
  }
  return name.slice(0, end);
}

/** `map`, or undefined when it has no entries (an empty map is not stored, as in v0.9.11). */
function nonEmpty<T extends object>(map: T | undefined): T | undefined {
  return map && Object.keys(map).length ? map : undefined;
}

/**
 * Checks a decoded MovieBase (push, pushs, edit; `MovieBaseRequest` of lib/contract/requests.ts)
 * and applies §7.1: `url too long`, `empty name`, `type too long`, name truncation, and the
 * playability checks of this server (`unsupported scheme: <s>`, vendor/proxy/RTMP refusals).
 * Returns the MovieBase to store; throws 400 with the text.
 */
export function readMovieBase(input: MovieBaseInput, proxy: ProxyPolicy): MovieBase {
  const base: MovieBase = {
    url: input.url,
    name: normalizeName(input.name),
    type: input.type,
    live: input.live,
    proxy: input.proxy,
    convert: input.convert || undefined,
    rtmpSource: input.rtmpSource,
    headers: nonEmpty(input.headers),
    subtitles: nonEmpty(input.subtitles),
    moreSources: input.moreSources?.length ? input.moreSources : undefined,
    danmu: input.danmu,
    streamDanmu: input.streamDanmu,
    isFolder: input.isFolder,
    parentId: input.parentId,
  };
  const vendor = input.vendorInfo?.vendor ?? '';
  const invalid = validateMovieBase(base);
  if (invalid) throw badRequest(invalid);
  if (byteLength(base.name) > MAX_NAME_BYTES) base.name = `${truncateBytes(base.name, TRUNCATED_NAME_BYTES)}...`;
  if (base.parentId && base.parentId.length !== 32) throw badRequest('parent id length must be empty or 32');
  if (base.convert) checkConvert(base, vendor, proxy);
  if (vendor === 'alist') return readAlistBase(base, input, proxy);
  if (vendor === 'emby') return readEmbyBase(base, input, proxy);
  if (vendor === 'bilibili') return readBilibiliBase(base, input, proxy);
  if (vendor) throw badRequest(`vendor ${vendor} is not supported by this server`);
  if (base.isFolder) return base;
  if (base.rtmpSource && base.proxy) throw badRequest("rtmp source and proxy can't be true at the same time");
  if (base.rtmpSource && !base.live) throw badRequest("rtmp source can't be true when movie is not live");
  if (base.rtmpSource) {
    if (!proxy.rtmp) throw badRequest('rtmp is not enabled');
    // The source is the push itself (docs/live.md): nothing to fetch, so no URL to check.
    return base;
  }
  const scheme = urlScheme(base.url);
  if (base.proxy) {
    if (base.live ? !proxy.liveProxy : !proxy.movieProxy) throw badRequest(base.live ? 'live proxy is not enabled' : 'movie proxy is not enabled');
    if (scheme !== 'http' && scheme !== 'https') throw badRequest(`unsupported scheme: ${scheme}`);
    if (!proxy.allowLocal && isLocalAddress(new URL(base.url).hostname, proxy.allowAddresses)) throw badRequest('local ip is not allowed');
    return base;
  }
  if (scheme !== 'http' && scheme !== 'https' && scheme !== 'magnet') throw badRequest(`unsupported scheme: ${scheme}`);
  return base;
}

/**
 * Whether `base` may be converted by this server (docs/transcode.md): a film the server fetches (an
 * http(s) URL outside the private network, or an AList file), not a live stream, a push, a folder or
 * an Emby movie (its media server converts it). Throws 400 `movie conversion is not enabled`,
 * `a live movie cannot be converted`, `this movie cannot be converted`, `local ip is not allowed`.
 */
export function checkConvert(base: MovieBase, vendor: string, proxy: ProxyPolicy): void {
  if (!proxy.convert) throw badRequest('movie conversion is not enabled');
  if (base.live || base.rtmpSource) throw badRequest('a live movie cannot be converted');
  if (base.isFolder || (vendor && vendor !== 'alist')) throw badRequest('this movie cannot be converted');
  if (vendor) return;
  const scheme = urlScheme(base.url);
  if (scheme !== 'http' && scheme !== 'https') throw badRequest(`unsupported scheme: ${scheme}`);
  if (!proxy.allowLocal && isLocalAddress(new URL(base.url).hostname, proxy.allowAddresses)) throw badRequest('local ip is not allowed');
}

/**
 * An AList movie or dynamic folder (docs/vendors.md): `vendorInfo.alist.path` names the file or
 * folder as `<serverId>/<path>`; the URL comes from AList when it plays, so `url` is dropped. Not
 * live, not an RTMP push; proxied only when the movie proxy is on. The folder password is taken as
 * sent (the route seals it). Throws 400 `path is empty`, `backend <name> not found`, and the proxy's texts.
 */
function readAlistBase(base: MovieBase, input: MovieBaseInput, proxy: ProxyPolicy): MovieBase {
  const info = input.vendorInfo;
  const path = info?.alist?.path ?? '';
  if (!path) throw badRequest('path is empty');
  if (info?.backend) throw badRequest(`backend ${info.backend} not found`);
  if (base.live || base.rtmpSource) throw badRequest('an alist movie cannot be live');
  if (base.proxy && !proxy.movieProxy) throw badRequest('movie proxy is not enabled');
  return { ...base, url: '', headers: undefined, vendorInfo: { vendor: 'alist', backend: '', alist: { path, password: info?.alist?.password ?? '' } } };
}

/**
 * An Emby or Jellyfin movie (docs/vendors.md): `vendorInfo.emby.path` names the item as
 * `<serverId>/<itemId>`. It always plays through the proxy (the media server's URLs carry the
 * creator's token), so the movie proxy must be on; not live. A folder (a library, series, season) is a
 * dynamic folder. Throws 400 `path is empty`, `backend <name> not found`, `movie proxy is not enabled`.
 */
function readEmbyBase(base: MovieBase, input: MovieBaseInput, proxy: ProxyPolicy): MovieBase {
  const info = input.vendorInfo;
  const path = info?.emby?.path ?? '';
  if (!path) throw badRequest('path is empty');
  if (info?.backend) throw badRequest(`backend ${info.backend} not found`);
  if (base.live || base.rtmpSource) throw badRequest('an emby movie cannot be live');
  if (!proxy.movieProxy) throw badRequest('movie proxy is not enabled');
  return { ...base, url: '', proxy: true, headers: undefined, vendorInfo: { vendor: 'emby', backend: '', emby: { path, transcode: Boolean(info?.emby?.transcode) } } };
}

/**
 * A bilibili video, series episode or live room (docs/vendors.md "bilibili"): `bvid` and `cid` name
 * a video's page, `epid` a series' episode, `cid` alone (with `live`) a live room. It always plays
 * through the proxy (bilibili's CDN answers only its own Referer), so the movie proxy must be on.
 * `shared` and `proxy` are kept as sent: either shares the creator's account. Throws 400
 * `backend <name> not found`, `bilibili folder not support`, `bvid and epid are empty`,
 * `cid is empty`, `movie proxy is not enabled`.
 */
function readBilibiliBase(base: MovieBase, input: MovieBaseInput, proxy: ProxyPolicy): MovieBase {
  const info = input.vendorInfo?.bilibili;
  if (input.vendorInfo?.backend) throw badRequest(`backend ${input.vendorInfo.backend} not found`);
  if (base.isFolder) throw badRequest('bilibili folder not support');
  if (base.rtmpSource) throw badRequest("rtmp source can't be true when movie is not live");
  if (base.live ? !info?.cid : !info?.bvid && !info?.epid) throw badRequest(base.live ? 'cid is empty' : 'bvid and epid are empty');
  if (!base.live && info?.bvid && !info.cid) throw badRequest('cid is empty');
  if (!proxy.movieProxy) throw badRequest('movie proxy is not enabled');
  const bilibili = { bvid: info?.bvid || undefined, cid: info?.cid || undefined, epid: info?.epid || undefined, quality: info?.quality || undefined, shared: Boolean(info?.shared) };
  return { ...base, url: '', headers: undefined, convert: undefined, vendorInfo: { vendor: 'bilibili', backend: '', bilibili } };
}

/**
 * Which sources the server fetches or takes: the movie proxy (site settings `movie_proxy`,
 * `live_proxy`, `allow_proxy_to_local`; `PROXY_ALLOW_ADDRESSES`) and RTMP pushes (the server's RTMP
 * ingest, docs/live.md).
 */
export interface ProxyPolicy {
  movieProxy: boolean;
  liveProxy: boolean;
  /** Whether the server takes RTMP pushes (rtmp-source movies); else 400 `rtmp is not enabled`. */
  rtmp: boolean;
  /** Whether movies may be converted (site setting `movie_convert`); else 400 `movie conversion is not enabled`. */
  convert: boolean;
  allowLocal: boolean;
  allowAddresses: readonly string[];
}

/**
 * Whether a URL's host names this machine or a private network by itself: `localhost` or an IP
 * literal outside the public unicast range (ipaddr.js ranges, IPv4-mapped IPv6 unwrapped). A DNS name
 * is checked when the proxy connects (../proxy/upstream.ts); this catches the obvious case at push time.
 */
export function isLocalAddress(hostname: string, allowAddresses: readonly string[]): boolean {
  // A name's trailing dot (`localhost.`, the root of DNS) names the same host.
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase().replace(/\.+$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (!ipaddr.isValid(host)) return false;
  let address = ipaddr.parse(host);
  if (address.kind() === 'ipv6') address = embeddedIPv4(address as ipaddr.IPv6) ?? address;
  if (allowAddresses.includes(address.toString())) return false;
  return address.range() !== 'unicast';
}

/**
 * The IPv4 address an IPv6 address stands for, or null: IPv4-mapped (`::ffff:a.b.c.d`),
 * IPv4-compatible (`::a.b.c.d`, deprecated but still routed to the IPv4 host by some stacks) and
 * NAT64 (`64:ff9b::a.b.c.d`, RFC 6052). `::` and `::1` are left as they are.
 */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const parts = address.parts;
  const low = new ipaddr.IPv4([parts[6] >> 8, parts[6] & 0xff, parts[7] >> 8, parts[7] & 0xff]);
  if (address.isIPv4MappedAddress()) return address.toIPv4Address();
  if (parts.slice(0, 6).every((part) => part === 0) && (parts[6] !== 0 || parts[7] > 1)) return low;
  if (parts[0] === 0x64 && parts[1] === 0xff9b && parts.slice(2, 6).every((part) => part === 0)) return low;
  return null;
}

/** The URL's scheme, lower-cased, or "" when it has none (as Go's url.Parse reports). */
function urlScheme(url: string): string {
  const match = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(url);
  return match ? match[1].toLowerCase() : '';
}
