/**
 * `POST /api/vendor/bilibili/parse` (docs/vendors.md "Parsing a link"): what a pasted link or id
 * names, as v0.9.11 answers it: a video's pages (BV or av id, a video link, whatever its `p=`), a
 * series' episodes (an episode `ep…` or season `ss…` link), or a live room (`live.bilibili.com/<id>`
 * or a bare number); a short link (`b23.tv/…`) is resolved first. Works without an account; with
 * one, bilibili answers as that account sees it.
 */
import { HttpError } from '../errors';
import { BILIBILI_MATCH_FAILED, matchLink, type BilibiliClient, type BilibiliCookies, type BilibiliPage } from './bilibili';

/** The videos `input` names. Throws 400 `match failed`, bilibili's refusals, 502 when bilibili cannot be reached. */
export async function parseBilibiliLink(client: BilibiliClient, input: string, cookies: BilibiliCookies): Promise<BilibiliPage> {
  let match = matchLink(input);
  if (match?.kind === 'short') match = matchLink(await client.resolveShort(match.id));
  if (!match || match.kind === 'short') throw new HttpError(400, BILIBILI_MATCH_FAILED);
  switch (match.kind) {
    case 'bv':
      return client.videoPage({ bvid: match.id }, cookies);
    case 'av':
      return client.videoPage({ aid: match.id }, cookies);
    case 'ep':
      return client.seasonPage({ epid: match.id }, cookies);
    case 'ss':
      return client.seasonPage({ ssid: match.id }, cookies);
    case 'live':
      return client.livePage(match.id, cookies);
  }
}
