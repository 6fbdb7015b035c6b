/**
 * The attacker of `npm run bench:abuse`, run in its own process so that its work does not delay the
 * canary's measurements. Reads `{ attack, url, seconds, token, roomId, canaryRoomId }` as JSON from the
 * environment variable ATTACK, runs that attack for `seconds` and prints one line `RESULT <json>`:
 * how many requests or messages it made and what came back.
 *
 * The attacks, each bounded in time and count:
 * - `large-bodies`: 12 parallel 8 MiB nested-array bodies to POST /api/user/login, half with a length
 *   and half chunked (the server must refuse before reading them whole).
 * - `unbounded-fields`: movies with an 8 MB `danmu` (and a 900 KB one that fits the body limit).
 * - `bulk-push`: an 8 MB `pushs`, 501 movies in one `pushs`, and 250-movie pushes until the room is full.
 * - `login-storm`: 32 parallel wrong sign-ins from one address, and from rotating addresses
 *   (X-Forwarded-For; the bench's server trusts the proxy) against rotating real accounts.
 * - `chat-flood`: 4 member sockets in the canary's room sending 4 KB chat lines as fast as they can.
 * - `socket-flood`: one account of its own opening 300 sockets at once in its own room and sending
 *   4 KB chat lines from every one that opens, as fast as they can.
 * - `slow-readers`: 30 connections that ask for the largest movie list again and again and never read,
 *   and 30 room sockets in the canary's room that never read while the flood goes on.
 */
import net from 'node:net';
import WebSocket from 'ws';
import { encodeMessage, MessageType } from '@/lib/contract/message';

interface Job {
  attack: string;
  url: string;
  seconds: number;
  /** A member of both rooms (the attacker's own room and the canary's). */
  token: string;
  /** The attacker's own room. */
  roomId: string;
  canaryRoomId: string;
  /** Names of real accounts for the rotating login storm. */
  stormUsers: string[];
  /** The socket flood's own account, and its own room. */
  flooderToken: string;
  flooderRoomId: string;
}

const job = JSON.parse(process.env.ATTACK ?? '{}') as Job;
const deadline = Date.now() + job.seconds * 1000;
const counts: Record<string, number> = {};
const count = (key: string | number, n = 1) => (counts[key] = (counts[key] ?? 0) + n);

async function request(path: string, init: RequestInit & { duplex?: 'half' }, headers: Record<string, string> = {}): Promise<void> {
  try {
    const response = await fetch(`${job.url}${path}`, { method: 'POST', ...init, headers: { 'Content-Type': 'application/json', ...headers, ...(init.headers as Record<string, string>) } });
    const text = await response.text();
    count(response.status);
    if (response.status >= 400 && response.status < 500) {
      try {
        count(`${response.status} ${(JSON.parse(text) as { error?: string }).error}`);
      } catch {
        // not JSON
      }
    }
  } catch {
    count('connection closed');
  }
}

async function loops(parallel: number, body: (lane: number, n: number) => Promise<void>): Promise<void> {
  await Promise.all(
    Array.from({ length: parallel }, async (_, lane) => {
      for (let n = 0; Date.now() < deadline; n++) await body(lane, n);
    }),
  );
}

const auth = (roomId: string) => ({ Authorization: job.token, 'X-Room-Id': roomId });

const DEPTH = 4 * 1024 * 1024;
const NESTED = `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`; // 8 MiB

function chunked(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(offset, offset + 65536));
      offset += 65536;
    },
  });
}

function movie(n: number, danmuBytes = 0) {
  return { url: `https://media.test/${n}.mp4`, name: `movie ${n}`, type: 'mp4', danmu: danmuBytes ? 'd'.repeat(danmuBytes) : '' };
}

const attacks: Record<string, () => Promise<void>> = {
  async 'large-bodies'() {
    await loops(12, (lane) =>
      lane % 2 === 0
        ? request('/api/user/login', { body: NESTED })
        : request('/api/user/login', { body: chunked(NESTED), duplex: 'half' }),
    );
  },
  async 'unbounded-fields'() {
    const huge = JSON.stringify(movie(1, 8_000_000));
    const large = JSON.stringify(movie(2, 900_000));
    await loops(8, (lane) => request('/api/room/movie/push', { body: lane % 2 ? huge : large }, auth(job.roomId)));
  },
  async 'bulk-push'() {
    const huge = JSON.stringify(Array.from({ length: 40_000 }, (_, n) => movie(n)));
    const tooMany = JSON.stringify(Array.from({ length: 501 }, (_, n) => movie(n)));
    await loops(6, (lane, n) => {
      if (lane === 0) return request('/api/room/movie/pushs', { body: huge }, auth(job.roomId));
      if (lane === 1) return request('/api/room/movie/pushs', { body: tooMany }, auth(job.roomId));
      return request('/api/room/movie/pushs', { body: JSON.stringify(Array.from({ length: 250 }, (_, i) => movie(n * 1000 + i))) }, auth(job.roomId));
    });
  },
  async 'login-storm'() {
    let address = 0;
    await loops(32, (lane, n) => {
      if (lane < 16) return request('/api/user/login', { body: JSON.stringify({ username: 'root', password: `wrong-${n}` }) });
      address++;
      const forwarded = `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`;
      return request('/api/user/login', { body: JSON.stringify({ username: job.stormUsers[address % job.stormUsers.length], password: `wrong-${n}` }) }, { 'X-Forwarded-For': forwarded });
    });
  },
  async 'chat-flood'() {
    const line = encodeMessage({ type: MessageType.CHAT, payload: { case: 'chatContent', value: 'f'.repeat(4000) } });
    await Promise.all(
      Array.from({ length: 4 }, () =>
        floodSocket(job.canaryRoomId, (ws) => {
          while (ws.bufferedAmount < 1 << 20) {
            ws.send(line);
            count('chat sent');
          }
        }),
      ),
    );
  },
  async 'socket-flood'() {
    // One account opens as many sockets as it may in its own room and chats from every one at once.
    const line = encodeMessage({ type: MessageType.CHAT, payload: { case: 'chatContent', value: 's'.repeat(4000) } });
    await Promise.all(
      Array.from({ length: 300 }, () =>
        floodSocket(job.flooderRoomId, (ws) => {
          while (ws.bufferedAmount < 1 << 18) {
            ws.send(line);
            count('chat sent');
          }
        }),
      ),
    );
  },
  async 'slow-readers'() {
    const url = new URL(job.url);
    const get = `GET /api/room/movie/movies?page=1&max=100 HTTP/1.1\r\nHost: ${url.host}\r\nX-Forwarded-For: 10.99.0.1\r\nAuthorization: ${job.token}\r\nX-Room-Id: ${job.roomId}\r\n\r\n`;
    const sockets = Array.from({ length: 30 }, () => {
      const socket = net.connect(Number(url.port), url.hostname);
      socket.pause(); // never read
      socket.on('error', () => count('http reader cut off'));
      socket.on('close', () => count('http reader closed'));
      return socket;
    });
    const writer = setInterval(() => {
      for (const socket of sockets) {
        if (socket.writable && socket.writableLength < 1 << 20) {
          socket.write(get.repeat(10));
          count('list requests', 10);
        }
      }
    }, 100);
    const line = encodeMessage({ type: MessageType.CHAT, payload: { case: 'chatContent', value: 'r'.repeat(4000) } });
    const readers = Array.from({ length: 30 }, () => floodSocket(job.canaryRoomId, () => undefined, true));
    const sender = floodSocket(job.canaryRoomId, (ws) => {
      ws.send(line); // within the chat budget: one line per 300 ms
      count('chat sent');
    }, false, 300);
    await Promise.all([...readers, sender]);
    clearInterval(writer);
    for (const socket of sockets) socket.destroy();
  },
};

/**
 * Opens a room socket and calls `tick` every `everyMs` until the deadline. `paused` stops reading
 * from the socket at once (a slow reader). Counts ERROR messages and the close.
 */
function floodSocket(roomId: string, tick: (ws: WebSocket) => void, paused = false, everyMs = 5, token = roomId === job.flooderRoomId ? job.flooderToken : job.token): Promise<void> {
  return new Promise((resolve) => {
    const wsUrl = new URL(`${job.url.replace('http', 'ws')}/api/room/ws`);
    wsUrl.searchParams.set('roomId', roomId);
    const ws = new WebSocket(wsUrl, [token]);
    let timer: NodeJS.Timeout | undefined;
    const finish = () => {
      clearInterval(timer);
      ws.terminate();
      resolve();
    };
    ws.on('open', () => {
      if (paused) (ws as unknown as { _socket: net.Socket })._socket.pause();
      timer = setInterval(() => (Date.now() < deadline && ws.readyState === WebSocket.OPEN ? tick(ws) : finish()), everyMs);
    });
    ws.on('message', (data: Buffer) => {
      // An ERROR frame starts with field 1 (type) = 1.
      if (data[0] === 0x08 && data[1] === MessageType.ERROR) count('ERROR received');
    });
    ws.on('close', (code, reason) => {
      count(`socket closed ${code}${reason.length ? ` ${reason.toString()}` : ''}`);
      finish();
    });
    ws.on('error', () => count('socket error'));
  });
}

const run = attacks[job.attack];
if (!run) {
  console.error(`unknown attack ${job.attack}`);
  process.exit(2);
}
run().then(
  () => {
    process.stdout.write(`RESULT ${JSON.stringify(counts)}\n`);
    process.exit(0);
  },
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
