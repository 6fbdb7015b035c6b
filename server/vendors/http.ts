/**
 * Calls from the server to a vendor's API (AList, Emby; docs/vendors.md): JSON in and out, through
 * the movie proxy's address guard (../proxy/upstream.ts: a bound host on a private or loopback
 * address is refused unless the admin allows it), with a deadline and a bound on the answer's size.
 * Redirects are not followed: an API that answers with one is not the API the user bound.
 */
import http from 'node:http';
import https from 'node:https';
import { HttpError } from '../errors';
import { guardedAgent, isRefusedAddress, LOCAL_IP_REFUSED, type UpstreamPolicy } from '../proxy/upstream';

/** Time a vendor has for one call, headers and body (ms). */
export const VENDOR_TIMEOUT_MS = 10_000;
/** The largest answer read (bytes): a folder listing of a few thousand entries fits. */
export const MAX_VENDOR_ANSWER_BYTES = 8 * 1024 * 1024;

/** 502: the vendor's server could not be reached or did not answer in time (companion text). */
export const VENDOR_UNREACHABLE = 'vendor server unreachable';
/** 502: the vendor's server answered something that is not its API (companion text). */
export const VENDOR_INVALID_ANSWER = 'vendor server answered unexpectedly';

/**
 * A vendor's address as the user typed it (AList, Emby, Jellyfin), normalized: an http(s) URL without a trailing slash, query or
 * fragment. Throws 400 `host is required` / `host is invalid`.
 */
export function normalizeVendorHost(input: string): string {
  const text = input.trim();
  if (!text) throw new HttpError(400, 'host is required');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new HttpError(400, 'host is invalid');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) throw new HttpError(400, 'host is invalid');
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

/** One API call. */
export interface VendorCall {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
}

/** What came back: the HTTP status and the parsed JSON body (null for an empty one, or a refusal that is not JSON). */
export interface VendorAnswer {
  status: number;
  body: unknown;
}

/**
 * Makes `call` and parses the answer as JSON. Rejects with an HttpError: 400 `local ip is not allowed`
 * (the guard), 502 VENDOR_UNREACHABLE (connection failed, timed out), 502 VENDOR_INVALID_ANSWER (not
 * JSON, too large, a redirect). The error never carries the request's headers or body.
 */
export function callVendor(call: VendorCall, policy: UpstreamPolicy): Promise<VendorAnswer> {
  let url: URL;
  try {
    url = new URL(call.url);
  } catch {
    return Promise.reject(new HttpError(400, 'host is invalid'));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return Promise.reject(new HttpError(400, 'host is invalid'));
  const payload = call.body === undefined ? undefined : Buffer.from(JSON.stringify(call.body));
  const headers: Record<string, string> = { Accept: 'application/json', ...call.headers };
  if (payload) {
    headers['Content-Type'] = 'application/json;charset=UTF-8';
    headers['Content-Length'] = String(payload.length);
  }
  const send = url.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const outgoing = send(url, { method: call.method, headers, agent: guardedAgent(url, policy) }, (response) => {
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400) {
        response.resume();
        reject(new HttpError(502, VENDOR_INVALID_ANSWER));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_VENDOR_ANSWER_BYTES) {
          response.destroy();
          reject(new HttpError(502, VENDOR_INVALID_ANSWER));
          return;
        }
        chunks.push(chunk);
      });
      response.on('error', () => reject(new HttpError(502, VENDOR_UNREACHABLE)));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        if (!text.trim()) return resolve({ status, body: null });
        try {
          resolve({ status, body: JSON.parse(text) as unknown });
        } catch {
          // A refusal in plain words (Emby's "Error processing request."): its status says enough.
          if (status >= 400) resolve({ status, body: null });
          else reject(new HttpError(502, VENDOR_INVALID_ANSWER));
        }
      });
    });
    // One deadline for the whole call, headers and body.
    const deadline = setTimeout(() => outgoing.destroy(new Error('timed out')), VENDOR_TIMEOUT_MS);
    outgoing.on('close', () => clearTimeout(deadline));
    outgoing.on('error', (error) => reject(isRefusedAddress(error) ? new HttpError(400, LOCAL_IP_REFUSED) : new HttpError(502, VENDOR_UNREACHABLE)));
    outgoing.end(payload);
  });
}
