/**
 * The media routes' budget (docs/security.md "The proxy's budget"): the movie proxy, the live routes
 * and the converted movies each hold a response open while they relay or make media, which costs
 * this server bandwidth and memory for as long as it lasts. So at most `perUser` such responses are
 * open at once for one viewer (a signed-in user, or a guest by address, since every guest shares one
 * user) and `perRoom` for one room; one more is refused with the contract's 429 `too many requests`
 * and `Retry-After: 1`, which players retry. A player needs a few at once (a playlist, a segment, a
 * range of a file); the defaults leave room for several tabs. Counted per instance.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../errors';
import { GUEST_USER_ID } from '../rules/users';

/** The caps: open media responses at once per viewer and per room (0: no cap). */
export interface StreamCaps {
  perUser: number;
  perRoom: number;
}

/** The defaults (env `MAX_STREAMS_PER_USER`, `MAX_STREAMS_PER_ROOM`). */
export const DEFAULT_STREAM_CAPS: StreamCaps = { perUser: 16, perRoom: 256 };

/** See the module comment. */
export class StreamBudget {
  private readonly byViewer = new Map<string, number>();
  private readonly byRoom = new Map<string, number>();

  constructor(private readonly caps: StreamCaps) {}

  /**
   * Holds one open response of `userId` (from `request`'s address for a guest) in `roomId` until
   * `reply` closes. Throws HttpError 429 `too many requests` (with `Retry-After: 1` on `reply`) when
   * the viewer or the room is at its cap; nothing is held then.
   */
  hold(request: FastifyRequest, reply: FastifyReply, userId: string, roomId: string): void {
    const viewer = userId === GUEST_USER_ID ? `guest ${request.ip}` : userId;
    const mine = this.byViewer.get(viewer) ?? 0;
    const room = this.byRoom.get(roomId) ?? 0;
    if ((this.caps.perUser > 0 && mine >= this.caps.perUser) || (this.caps.perRoom > 0 && room >= this.caps.perRoom)) {
      reply.header('retry-after', '1');
      throw new HttpError(429, 'too many requests');
    }
    this.byViewer.set(viewer, mine + 1);
    this.byRoom.set(roomId, room + 1);
    let released = false;
    reply.raw.once('close', () => {
      if (released) return;
      released = true;
      decrement(this.byViewer, viewer);
      decrement(this.byRoom, roomId);
    });
  }
}

function decrement(counts: Map<string, number>, key: string): void {
  const left = (counts.get(key) ?? 1) - 1;
  if (left > 0) counts.set(key, left);
  else counts.delete(key);
}
