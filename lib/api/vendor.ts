/**
 * Vendor accounts (docs/vendors.md; docs/contract.md §4.8): the AList, Emby and Jellyfin servers a
 * user bound, binding and unbinding one, its signed-in user, and browsing it for the add-movie
 * picker. Each call needs a signed-in (non-guest) user and throws `ApiError` with the server's text
 * on failure.
 */
import { get, post } from './client';
import type { BilibiliMe, BilibiliPage, BilibiliQrStatus, VendorServer, VendorMe, BindableVendor, VendorList } from '@/lib/contract/types';

/** What AList's web client appends to a password before hashing it. */
const ALIST_PASSWORD_SALT = '-https://github.com/alist-org/alist';

/**
 * The lowercase hex SHA-256 of `password` + AList's salt (what `hashedPassword` carries), or null
 * where the browser offers no hashing (a page on plain http:// other than localhost: WebCrypto needs
 * a secure context), in which case the password itself is sent.
 */
export async function alistPasswordHash(password: string): Promise<string | null> {
  if (typeof crypto === 'undefined' || !crypto.subtle) return null;
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(password + ALIST_PASSWORD_SALT));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** `GET /api/vendor/{vendor}/binds` → the user's servers, oldest first. */
export function getBindings(vendor: BindableVendor): Promise<VendorServer[]> {
  return get<VendorServer[] | null>(`/api/vendor/${vendor}/binds`).then((list) => list ?? []);
}

/**
 * `POST /api/vendor/{vendor}/login` → 204: binds (or signs in again to) the server at `host`. AList's
 * password goes as its hash where the browser can make one, as the reference client sends it; Emby
 * and Jellyfin take the password itself (the server keeps only the access token). Errors: `host is
 * required`, `host is invalid`, `alist: password is incorrect`, `emby: user name or password is
 * incorrect`, `local ip is not allowed`, 502 `vendor server unreachable`.
 */
export async function bindVendor(vendor: BindableVendor, host: string, username: string, password: string): Promise<void> {
  if (vendor === 'emby') return post<void>('/api/vendor/emby/login', { json: { host, username, password } });
  const hashedPassword = password ? await alistPasswordHash(password) : '';
  const json = hashedPassword === null ? { host, username, password } : { host, username, hashedPassword };
  return post<void>('/api/vendor/alist/login', { json });
}

/** `POST /api/vendor/{vendor}/logout {serverId}` → 204. */
export function unbindVendor(vendor: BindableVendor, serverId: string): Promise<void> {
  return post<void>(`/api/vendor/${vendor}/logout`, { json: { serverId } });
}

/** `GET /api/vendor/{vendor}/me?serverId=` → the user on a bound server. */
export function getVendorMe(vendor: BindableVendor, serverId: string): Promise<VendorMe> {
  return get<VendorMe>(`/api/vendor/${vendor}/me`, { searchParams: { serverId, serverID: serverId } });
}

/**
 * `POST /api/vendor/{vendor}/list?page&max {path, password, keyword}`: a page (from 1) of a folder
 * (`<serverId>/<path or item id>`; "" = the one server's top, or the servers when there are several),
 * or of a search under it. Errors: `alist server not found` / `emby server not found` (none bound),
 * `alist: password is incorrect or you have no permission` (a locked AList folder).
 */
export function listVendor(vendor: BindableVendor, query: { path: string; password?: string; keyword?: string; page: number; max: number }): Promise<VendorList> {
  return post<VendorList>(`/api/vendor/${vendor}/list`, {
    searchParams: { page: query.page, max: query.max },
    json: vendor === 'alist' ? { path: query.path, password: query.password ?? '', keyword: query.keyword ?? '' } : { path: query.path, keyword: query.keyword ?? '' },
  });
}

/** `GET /api/vendor/bilibili/me` → whether a bilibili account is bound and still signed in (docs/vendors.md "bilibili"). */
export function getBilibiliMe(): Promise<BilibiliMe> {
  return get<BilibiliMe>('/api/vendor/bilibili/me');
}

/** `GET /api/vendor/bilibili/login/qr` → a new QR sign-in: the URL its code shows (bilibili's app opens it) and its key. */
export function newBilibiliQr(): Promise<{ url: string; key: string }> {
  return get<{ url: string; key: string }>('/api/vendor/bilibili/login/qr');
}

/** `POST /api/vendor/bilibili/login/qr {key}` → the sign-in's state; `success` has bound the account. */
export async function pollBilibiliQr(key: string): Promise<BilibiliQrStatus> {
  return (await post<{ status: BilibiliQrStatus }>('/api/vendor/bilibili/login/qr', { json: { key } })).status;
}

/** `POST /api/vendor/bilibili/logout` → 204: unbinds the bilibili account. */
export function logoutBilibili(): Promise<void> {
  return post<void>('/api/vendor/bilibili/logout', { json: {} });
}

/**
 * `POST /api/vendor/bilibili/parse {url}` → what a link names: a video's pages, a series' episodes or
 * a live room. Errors: `url is empty`, `match failed`, `bilibili: …` (removed, region), 502 when
 * bilibili cannot be reached.
 */
export function parseBilibili(url: string): Promise<BilibiliPage> {
  return post<BilibiliPage>('/api/vendor/bilibili/parse', { json: { url } });
}
