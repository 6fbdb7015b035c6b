/**
 * The STUN and TURN servers voice chat gives its peer connections (docs/voice.md): the build's
 * `NEXT_PUBLIC_ICE_SERVERS` (the JSON of an RTCIceServer list, e.g.
 * `[{"urls":"turn:turn.example.com:3478","username":"u","credential":"p"}]`), else the reference
 * client's public STUN server. Two browsers on one network need none; behind NAT a STUN server
 * finds the public address, and where that is not enough (symmetric NAT, strict firewalls) only a
 * TURN server relays.
 */
import { DEFAULT_ICE_SERVERS } from './mesh';

/**
 * Parses `json` (default: the build's NEXT_PUBLIC_ICE_SERVERS) into an RTCIceServer list; an empty,
 * malformed or empty-list value gives DEFAULT_ICE_SERVERS. Entries without `urls` are dropped.
 */
export function iceServers(json: string | undefined = process.env.NEXT_PUBLIC_ICE_SERVERS): RTCIceServer[] {
  if (!json) return DEFAULT_ICE_SERVERS;
  try {
    const value: unknown = JSON.parse(json);
    if (!Array.isArray(value)) return DEFAULT_ICE_SERVERS;
    const servers = value.filter(
      (entry): entry is RTCIceServer =>
        typeof entry === 'object' && entry !== null && (typeof entry.urls === 'string' || (Array.isArray(entry.urls) && entry.urls.every((url: unknown) => typeof url === 'string'))),
    );
    return servers.length > 0 ? servers : DEFAULT_ICE_SERVERS;
  } catch {
    return DEFAULT_ICE_SERVERS;
  }
}
