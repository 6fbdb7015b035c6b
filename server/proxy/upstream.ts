/**
 * Requests to the sources of proxied movies (docs/contract.md §4.5 `/movie/proxy`), guarded
 * against server-side request forgery: every connection, redirects included, goes through
 * request-filtering-agent, which refuses loopback, private, link-local, unique-local, multicast,
 * unspecified and cloud-metadata addresses (ipaddr.js ranges) after DNS resolution, so a name that
 * resolves to 127.0.0.1 is refused like the literal. The site setting `allow_proxy_to_local` lifts
 * the private-network refusal for home servers; `allowAddresses` (env `PROXY_ALLOW_ADDRESSES`) lets
 * an operator name single internal addresses instead. Time and redirect limits apply to every request.
 */
import http from 'node:http';
import https from 'node:https';
import { useAgent as filteringAgent } from 'request-filtering-agent';
import { HttpError } from '../errors';

/** Redirects followed at most (each hop is checked again). */
export const MAX_REDIRECTS = 5;
/** Time allowed for the source to answer with headers, and then between two chunks (ms). */
export const UPSTREAM_TIMEOUT_MS = 20_000;

/** The refusal of a guarded address (v0.9.11's text, §8). */
export const LOCAL_IP_REFUSED = 'local ip is not allowed';

/** Who may be reached. */
export interface UpstreamPolicy {
  /** `allow_proxy_to_local`: private and loopback addresses are reachable too. */
  allowLocal: boolean;
  /** Single addresses reachable even when `allowLocal` is off (IP literals). */
  allowAddresses: readonly string[];
}

export interface UpstreamRequest {
  method: 'GET' | 'HEAD';
  url: string;
  /** Headers of the movie (`base.headers`), a vendor's (its token, bilibili's Referer) and forwarded ones (Range). */
  headers: Record<string, string>;
  /**
   * Names of `headers` that are no secret and go on when a redirect leads to another origin (e.g.
   * bilibili's `Referer` and `User-Agent`); `Range` always does. Every other header stays with the
   * origin it was meant for.
   */
  publicHeaders?: readonly string[];
}

/**
 * `headers` as they go to another origin than the one they were meant for (RFC 9110 §15.4, as
 * browsers do with `Authorization` and cookies): only `Range` and the names in `publicHeaders`
 * (case-insensitive); a movie's own headers, `Authorization`, `Cookie` and vendor tokens are dropped.
 */
export function headersForOtherOrigin(headers: Record<string, string>, publicHeaders: readonly string[] = []): Record<string, string> {
  const kept = new Set(['range', ...publicHeaders.map((name) => name.toLowerCase())]);
  return Object.fromEntries(Object.entries(headers).filter(([name]) => kept.has(name.toLowerCase())));
}

/** A failure the client should hear about: 400 for a refused address, 502 for an unreachable source. */
function upstreamError(error: unknown): HttpError {
  if (isRefusedAddress(error)) return new HttpError(400, LOCAL_IP_REFUSED);
  return new HttpError(502, 'the movie source could not be reached');
}

/**
 * Opens `request.url`, following up to MAX_REDIRECTS redirects (each one checked by the guard; the
 * request's headers go on only while the origin stays the same, headersForOtherOrigin past it), and
 * resolves with the final response (body unread) and its URL. Rejects with an HttpError: 400
 * `local ip is not allowed`, 400 `unsupported scheme: <s>` for a redirect to another scheme, 502 when
 * the source cannot be reached, answers too slowly or redirects too often.
 */
export async function openUpstream(request: UpstreamRequest, policy: UpstreamPolicy): Promise<{ response: http.IncomingMessage; url: string }> {
  let url = request.url;
  const origin = new URL(url).origin;
  let headers = request.headers;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new HttpError(400, `unsupported scheme: ${parsed.protocol.replace(/:$/, '')}`);
    }
    // Once gone to another origin, a redirect back does not bring the credentials back.
    if (parsed.origin !== origin) headers = headersForOtherOrigin(headers, request.publicHeaders);
    const response = await requestOnce(parsed, { ...request, headers }, policy);
    const location = response.headers.location;
    if (response.statusCode && response.statusCode >= 300 && response.statusCode < 400 && location) {
      response.resume();
      url = new URL(location, parsed).href;
      continue;
    }
    return { response, url };
  }
  throw new HttpError(502, 'the movie source redirects too many times');
}

/** The agent of one request to `url`: refuses, after DNS, the addresses `policy` does not allow (request-filtering-agent). */
export function guardedAgent(url: URL, policy: UpstreamPolicy): http.Agent {
  return filteringAgent(url.href, {
    allowPrivateIPAddress: policy.allowLocal,
    allowIPAddressList: [...policy.allowAddresses],
    keepAlive: false,
  });
}

/** Whether `error` is the guard's refusal of an address. */
export function isRefusedAddress(error: unknown): boolean {
  return /is not allowed/i.test(error instanceof Error ? error.message : String(error));
}

function requestOnce(url: URL, request: UpstreamRequest, policy: UpstreamPolicy): Promise<http.IncomingMessage> {
  const agent = guardedAgent(url, policy);
  const send = url.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const outgoing = send(url, { method: request.method, headers: request.headers, agent, timeout: UPSTREAM_TIMEOUT_MS }, resolve);
    outgoing.on('timeout', () => outgoing.destroy(new Error('timed out')));
    outgoing.on('error', (error) => reject(upstreamError(error)));
    outgoing.end();
  });
}
