/**
 * `TRUST_PROXY` (docs/deployment.md "Configuration"): which proxies' `X-Forwarded-For` names the
 * client, so that the rate limits count the visitor's address rather than the proxy's. Only the
 * proxies' own addresses are taken (a list, CIDR ranges included, as Fastify's `trustProxy` reads
 * them): `true`, which believes any `X-Forwarded-For`, would let a client that reaches the port
 * directly (RTMP needs it reachable) name any address it likes and so escape every limit.
 */
import type { IncomingMessage } from 'node:http';
import proxyAddr from 'proxy-addr';

/** The message for `TRUST_PROXY=true`, which says what to set instead. */
export const TRUST_PROXY_TRUE_REFUSED =
  'TRUST_PROXY=true would believe any X-Forwarded-For, also from a client that reaches this port directly (RTMP needs it reachable), and let it escape the rate limits: set the addresses of your proxies instead, e.g. TRUST_PROXY=127.0.0.1 (a comma-separated list, CIDR ranges too: 127.0.0.1,10.0.0.0/8)';

/**
 * The trusted proxies of a `TRUST_PROXY` value: unset, empty or `false` = none (false); else the
 * comma-separated addresses and CIDR ranges, trimmed (`127.0.0.1, 10.0.0.0/8` → `127.0.0.1,10.0.0.0/8`).
 * Throws TRUST_PROXY_TRUE_REFUSED for `true`.
 */
export function trustProxyFromEnv(value: string | undefined): false | string {
  const text = (value ?? '').trim();
  if (!text || text.toLowerCase() === 'false') return false;
  if (text.toLowerCase() === 'true') throw new Error(TRUST_PROXY_TRUE_REFUSED);
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .join(',');
}

/**
 * The client's address of a raw request (the room socket's upgrade, outside Fastify), as Fastify's
 * `request.ip` reads it with the same `trustProxy` (false or the comma-separated list above): the
 * peer's address, or the last one in `X-Forwarded-For` that a trusted proxy did not add.
 */
export function clientAddressOf(trustProxy: false | string): (request: IncomingMessage) => string {
  const trusted = proxyAddr.compile(trustProxy ? trustProxy.split(',') : []);
  return (request) => proxyAddr(request, trusted);
}
