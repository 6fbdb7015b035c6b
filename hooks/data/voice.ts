/**
 * Voice chat's data (docs/voice.md): the ICE servers a call uses.
 */
import { getIceServers } from '@/lib/api/room-member';
import { iceServers as buildIceServers } from '@/lib/voice/ice-servers';

/**
 * The STUN/TURN servers for a call in `roomId`: the companion server's (with TURN credentials for
 * this user), else, when the server has none configured or no such route (a v0.9.11 server) or the
 * call fails, the build's list (lib/voice/ice-servers.ts). Never rejects.
 */
export async function loadIceServers(roomId: string): Promise<RTCIceServer[]> {
  try {
    const { iceServers } = await getIceServers(roomId);
    return Array.isArray(iceServers) && iceServers.length > 0 ? iceServers : buildIceServers();
  } catch {
    return buildIceServers();
  }
}
