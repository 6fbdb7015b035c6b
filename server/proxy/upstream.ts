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
  /** Headers of the movie (`base.headers`) plus forwarded ones (Range). */
  headers: Record<string, string>;
}

/** A failure the client should hear about: 400 for a refused address, 502 for an unreachable source. */
function upstreamError(error: unknown): HttpError {
  if (isRefusedAddress(error)) return new HttpError(400, LOCAL_IP_REFUSED);
  return new HttpError(502, 'the movie source could not be reached');
}

/**
 * Opens `request.url`, following up to MAX_REDIRECTS redirects (each one checked by the guard), and
 * resolves with the final response (body unread) and its URL. Rejects with an HttpError: 400
 * `local ip is not allowed`, 400 `unsupported scheme: <s>` for a redirect to another scheme, 502 when
 * the source cannot be reached, answers too slowly or redirects too often.
 */
export async function openUpstream(request: UpstreamRequest, policy: UpstreamPolicy): Promise<{ response: http.IncomingMessage; url: string }> {
  let url = request.url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new HttpError(400, `unsupported scheme: ${parsed.protocol.replace(/:$/, '')}`);
    }
    const response = await requestOnce(parsed, request, policy);
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
