/**
 * bilibili's "WBI" query signature (docs/vendors.md "bilibili"), which its web API asks of some
 * calls (the play URL of a video): a 32-character mixin key picked by a fixed table out of the two
 * keys the `nav` answer names (`wbi_img.img_url` and `sub_url`, the file names without extension),
 * then `w_rid` = MD5 of the query sorted by name, with `wts` (Unix seconds) added and the characters
 * `!'()*` dropped from values, followed by the mixin key. No npm package does this; it is small.
 */
import crypto from 'node:crypto';

/** The order in which the 64 characters of `img_key + sub_key` are read; the first 32 are the key. */
const MIXIN_ORDER = [
  46, 47, 18, 2, 53, 8, 23, 32, 15, 50, 10, 31, 58, 3, 45, 35, 27, 43, 5, 49, 33, 9, 42, 19, 29, 28, 14, 39, 12, 38, 41, 13, 37, 48, 7, 16, 24, 55, 40, 61, 26, 17, 0, 1, 60, 51, 30, 4, 22, 25,
  54, 21, 56, 59, 6, 63, 57, 62, 11, 36, 20, 34, 44, 52,
];

/** The keys of a `nav` answer's `wbi_img`: the file name of each URL without its extension. */
export function wbiKeysOf(wbiImg: { img_url?: string; sub_url?: string }): { imgKey: string; subKey: string } {
  const name = (url = '') => url.slice(url.lastIndexOf('/') + 1).split('.')[0];
  return { imgKey: name(wbiImg.img_url), subKey: name(wbiImg.sub_url) };
}

/** The mixin key of `imgKey + subKey` (32 characters). */
export function mixinKey(imgKey: string, subKey: string): string {
  const raw = imgKey + subKey;
  return MIXIN_ORDER.map((index) => raw[index] ?? '')
    .join('')
    .slice(0, 32);
}

/**
 * `params` signed: the same names plus `wts` (= `nowSec`) and `w_rid`, as a query string sorted by
 * name, values percent-encoded with `%20` for spaces, as bilibili's own web client sends them.
 */
export function signWbi(params: Record<string, string | number>, keys: { imgKey: string; subKey: string }, nowSec: number): string {
  const all: Record<string, string> = { wts: String(nowSec) };
  for (const [name, value] of Object.entries(params)) all[name] = String(value).replace(/[!'()*]/g, '');
  const query = Object.keys(all)
    .sort()
    .map((name) => `${encodeURIComponent(name)}=${encodeURIComponent(all[name])}`)
    .join('&');
  const rid = crypto.createHash('md5').update(query + mixinKey(keys.imgKey, keys.subKey)).digest('hex');
  return `${query}&w_rid=${rid}`;
}
