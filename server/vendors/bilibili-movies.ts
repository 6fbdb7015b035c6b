/**
 * bilibili movies in a room (docs/vendors.md "bilibili", docs/contract.md §7.1 `vendorInfo`): a
 * video page, a series' episode or a live room pushed with `vendorInfo: {vendor: "bilibili",
 * bilibili: {bvid, cid, epid, shared}}`. Always played through this server, as bilibili's CDN
 * answers only requests with its own Referer: `GET /current` names the proxy route, which serves a
 * DASH manifest built from bilibili's play-URL answer (./bilibili-mpd.ts), each stream's bytes with
 * bilibili's headers, the subtitles as WebVTT, the danmaku file, or a live room's HLS.
 *
 * Whose account: `shared` or `proxy` (the reference client's two boxes) → the creator's, for
 * everyone; neither → each viewer's own, and a viewer without one is told to bind it.
 */
import type { MovieBase } from '@/lib/contract/types';
import { badRequest } from '../errors';
import { bilibiliCdnHeaders } from './bilibili';
import type { BilibiliAccounts, BilibiliTarget } from './bilibili-accounts';
import { bilibiliMpd, isHevc, numberedStreams, subtitleVtt } from './bilibili-mpd';

/** 400 for a viewer of an unshared bilibili video who bound no bilibili account (companion text). */
export const BILIBILI_BIND_TO_WATCH = 'bilibili: bind a bilibili account in your user center to watch this video';

/** A movie row as the rules read it. */
interface BilibiliMovieRow {
  id: string;
  creatorId: string;
  base: MovieBase;
}

/** Whether a base is a bilibili movie. */
export function isBilibiliMovie(base: MovieBase): boolean {
  return base.vendorInfo?.vendor === 'bilibili';
}

function targetOf(base: MovieBase): BilibiliTarget {
  const info = base.vendorInfo?.bilibili ?? {};
  return { bvid: info.bvid || undefined, cid: info.cid || undefined, epid: info.epid || undefined };
}

/** Whether everyone plays with the creator's account. */
function sharesCreator(base: MovieBase): boolean {
  return Boolean(base.vendorInfo?.bilibili?.shared || base.proxy);
}

/**
 * Whose account plays the movie for `viewerId`: the creator's when shared; else the viewer's own.
 * Throws 400 BILIBILI_BIND_TO_WATCH when that is the viewer's and they bound none.
 */
async function accountFor(accounts: BilibiliAccounts, movie: BilibiliMovieRow, viewerId: string): Promise<string> {
  if (sharesCreator(movie.base)) return movie.creatorId;
  if (!viewerId || !(await accounts.cookies(viewerId))) throw badRequest(BILIBILI_BIND_TO_WATCH);
  return viewerId;
}

/**
 * What `GET /current` shows `viewerId` of a bilibili movie, `query` being the caller's token and
 * room: the proxy route, as a DASH manifest (`type: mpd`; `t=hevc` as a second source when bilibili
 * has HEVC streams), its subtitles (`t=subtitle&n=<i>`, WebVTT) and danmaku file (`t=danmu`); a
 * live room as HLS (`type: m3u8`) with its danmaku stream (`streamDanmu`). Throws 400
 * BILIBILI_BIND_TO_WATCH, bilibili's refusals (removed, region, members only, expired sign-in), 502
 * when bilibili cannot be reached.
 */
export async function bilibiliPlaybackBase(accounts: BilibiliAccounts, movie: BilibiliMovieRow, base: MovieBase, query: URLSearchParams, viewerId: string): Promise<MovieBase> {
  const route = (extra: string) => `/api/room/movie/proxy/${movie.id}?${extra}${query}`;
  if (movie.base.live) {
    // Asked now, so that a room that is not broadcasting is said in words rather than as a failed stream.
    await accounts.liveHls(movie.creatorId, targetOf(movie.base).cid ?? 0);
    return { ...base, url: route(''), type: 'm3u8', headers: undefined, streamDanmu: `/api/room/movie/danmu/${movie.id}?${query}` };
  }
  const owner = await accountFor(accounts, movie, viewerId);
  const target = targetOf(movie.base);
  const dash = await accounts.dash(owner, target);
  const hasMain = dash.video.some((stream) => !isHevc(stream));
  const hasHevc = dash.video.some(isHevc);
  const subtitles = await accounts.subtitles(owner, target).catch(() => []);
  return {
    ...base,
    url: route(hasMain ? '' : 't=hevc&'),
    type: 'mpd',
    headers: undefined,
    moreSources: hasMain && hasHevc ? [{ name: 'HEVC', type: 'mpd', url: route('t=hevc&') }] : undefined,
    subtitles: subtitles.length ? Object.fromEntries(subtitles.map((subtitle, index) => [subtitle.name || `#${index + 1}`, { url: route(`t=subtitle&n=${index}&`), type: 'vtt' }])) : undefined,
    danmu: target.cid ? route('t=danmu&') : '',
  };
}

/** What the proxy answers for a bilibili movie: a body it made, or a URL to stream with headers. */
export type BilibiliUpstream = { body: string; contentType: string } | { url: string; headers: Record<string, string> };

/**
 * What `GET /api/room/movie/proxy/:id` serves of a bilibili movie for `viewerId` (`query` is the
 * caller's token and room, put into the manifest's stream URLs): `t` "" or `hevc` the manifest,
 * `id=<n>` stream n of it, `t=subtitle&n=<i>` subtitle i as WebVTT, `t=danmu` the danmaku XML; a
 * live room its HLS playlist. Throws 400 `stream id out of range`, `subtitle not found`, and
 * bilibiliPlaybackBase's texts.
 */
export async function bilibiliUpstream(
  accounts: BilibiliAccounts,
  movie: BilibiliMovieRow,
  viewerId: string,
  request: { t: string; id: string; n: string; query: URLSearchParams },
): Promise<BilibiliUpstream> {
  const target = targetOf(movie.base);
  if (movie.base.live) return { url: await accounts.liveHls(movie.creatorId, target.cid ?? 0), headers: bilibiliCdnHeaders() };
  if (request.t === 'danmu') {
    if (!target.cid) throw badRequest('subtitle not found');
    return { body: await accounts.danmakuXml(target.cid), contentType: 'application/xml' };
  }
  const owner = await accountFor(accounts, movie, viewerId);
  if (request.t === 'subtitle') {
    const subtitle = (await accounts.subtitles(owner, target))[Number(request.n)];
    if (!request.n || !subtitle) throw badRequest('subtitle not found');
    return { body: subtitleVtt(await accounts.client.subtitleLines(subtitle.url)), contentType: 'text/vtt; charset=utf-8' };
  }
  const dash = await accounts.dash(owner, target);
  if (request.id !== '') {
    const stream = numberedStreams(dash)[Number(request.id)];
    if (!/^\d+$/.test(request.id) || !stream) throw badRequest('stream id out of range');
    return { url: stream.baseUrl, headers: bilibiliCdnHeaders() };
  }
  const mpd = bilibiliMpd(dash, request.t === 'hevc' ? 'hevc' : 'main', (index) => `/api/room/movie/proxy/${movie.id}?id=${index}&${request.query}`);
  if (!mpd) throw badRequest('stream id out of range');
  return { body: mpd, contentType: 'application/dash+xml' };
}
