/**
 * The room socket client: URL and subprotocol (docs/contract.md §6.1), binary decoding with
 * reported (not thrown) failures, timestamp stamping, and reconnects that never give up.
 */
import { decodeMessage, encodeMessage, MessageType, type Message } from '@/lib/contract/message';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { loadRoomCodec, reconnectDelayMs, RoomSocket, roomSocketUrl, type RoomSocketState, type WebSocketLike } from './room-socket';

class FakeWebSocket implements WebSocketLike {
  static instances: FakeWebSocket[] = [];
  binaryType = 'blob';
  readyState = 0;
  sent: Uint8Array[] = [];
  closed: { code?: number; reason?: string } | null = null;
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;

  constructor(
    readonly url: string,
    readonly protocols?: string[],
  ) {
    FakeWebSocket.instances.push(this);
  }

  send(data: Uint8Array): void {
    this.sent.push(data);
  }

  close(code?: number, reason?: string): void {
    this.closed = { code, reason };
    this.readyState = 3;
  }

  serverOpens(): void {
    this.readyState = 1;
    this.onopen?.({});
  }

  serverCloses(code = 1006): void {
    this.readyState = 3;
    this.onerror?.({});
    this.onclose?.({ code, reason: '' });
  }

  serverSends(data: unknown): void {
    this.onmessage?.({ data });
  }
}

const ROOM = 'f'.repeat(32);

function makeSocket(token: string | null = 'jwt.token.value', clock = () => 1_700_000_000_000) {
  return new RoomSocket({
    roomId: ROOM,
    origin: () => 'https://synctv.example:8443',
    token: () => token,
    clock,
    random: () => 0.5,
    createWebSocket: (url, protocols) => new FakeWebSocket(url, protocols),
  });
}

const latest = () => FakeWebSocket.instances[FakeWebSocket.instances.length - 1];

/** Lets the socket's async frame handling run. */
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

const root = path.resolve(__dirname, '..', '..');

/** The non-test TypeScript files under `dir`, relative to the repository. */
function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}

// Loaded once per page; the tests below but the first start with it in.
beforeAll(() => loadRoomCodec());

beforeEach(() => {
  FakeWebSocket.instances = [];
});

describe('RoomSocket before its codec is in', () => {
  it('is the only browser module that takes the codec in, and only on demand (so it comes down after the first frame)', () => {
    const importers = ['app', 'components', 'hooks', 'lib']
      .flatMap(sources)
      .filter((file) => !file.startsWith(path.join('lib', 'contract')) && !file.startsWith(path.join('lib', 'proto')))
      .filter((file) => /from '@\/lib\/(contract\/message|proto\/message)'/.test(readFileSync(path.join(root, file), 'utf8').replace(/import type [^;]+;/g, '')));
    expect(importers).toEqual([]);
  });

  it('is connecting while the codec loads, and opens its socket once it is in', async () => {
    let fresh!: typeof import('./room-socket');
    jest.isolateModules(() => {
      fresh = jest.requireActual<typeof import('./room-socket')>('./room-socket');
    });
    const socket = new fresh.RoomSocket({ roomId: ROOM, origin: () => 'https://synctv.example', token: () => 'jwt', createWebSocket: (url, protocols) => new FakeWebSocket(url, protocols) });
    const states: RoomSocketState[] = [];
    socket.on('state', (state) => states.push(state));
    socket.connect();
    expect(states).toEqual(['connecting']);
    expect(FakeWebSocket.instances).toHaveLength(0);
    await fresh.loadRoomCodec();
    await flush();
    expect(FakeWebSocket.instances).toHaveLength(1);
    latest().serverOpens();
    expect(states).toEqual(['connecting', 'open']);
    expect(socket.sendSync()).toBe(true);
    expect(decodeMessage(latest().sent[0] as Uint8Array).type).toBe(MessageType.SYNC);
  });

  it('opens nothing when it was closed while the codec loaded', async () => {
    let fresh!: typeof import('./room-socket');
    jest.isolateModules(() => {
      fresh = jest.requireActual<typeof import('./room-socket')>('./room-socket');
    });
    const socket = new fresh.RoomSocket({ roomId: ROOM, origin: () => 'https://synctv.example', token: () => 'jwt', createWebSocket: (url, protocols) => new FakeWebSocket(url, protocols) });
    socket.connect();
    socket.close();
    await fresh.loadRoomCodec();
    await flush();
    expect(FakeWebSocket.instances).toHaveLength(0);
    expect(socket.state).toBe('closed');
  });
});

describe('roomSocketUrl', () => {
  it('uses ws for http and wss for https, at the origin root', () => {
    expect(roomSocketUrl('http://localhost:8080', ROOM)).toBe(`ws://localhost:8080/api/room/ws?roomId=${ROOM}`);
    expect(roomSocketUrl('https://synctv.example', ROOM)).toBe(`wss://synctv.example/api/room/ws?roomId=${ROOM}`);
  });
});

describe('RoomSocket connection', () => {
  it('offers the raw token as the only subprotocol and reads binary frames as ArrayBuffer', () => {
    const socket = makeSocket('abc.def.ghi');
    socket.connect();
    expect(latest().url).toBe(`wss://synctv.example:8443/api/room/ws?roomId=${ROOM}`);
    expect(latest().protocols).toEqual(['abc.def.ghi']);
    expect(latest().binaryType).toBe('arraybuffer');
  });

  it('offers no subprotocol for a guest', () => {
    makeSocket(null).connect();
    expect(latest().protocols).toBeUndefined();
  });

  it('reports connecting, then open', () => {
    const socket = makeSocket();
    const states: RoomSocketState[] = [];
    socket.on('state', (state) => states.push(state));
    socket.connect();
    latest().serverOpens();
    expect(states).toEqual(['connecting', 'open']);
    expect(socket.state).toBe('open');
  });

  it('decodes frames and reports malformed ones without closing', async () => {
    const socket = makeSocket();
    const messages: Message[] = [];
    const errors: Error[] = [];
    socket.on('message', (message) => messages.push(message));
    socket.on('decodeError', (error) => errors.push(error));
    socket.connect();
    latest().serverOpens();

    const frame = encodeMessage({ type: MessageType.VIEWER_COUNT, payload: { case: 'viewerCount', value: 3n } });
    latest().serverSends(frame.buffer.slice(frame.byteOffset, frame.byteOffset + frame.byteLength));
    latest().serverSends(new Uint8Array([0xff, 0xff, 0xff]).buffer);
    latest().serverSends('not binary');
    await flush();

    expect(messages).toHaveLength(1);
    expect(messages[0].payload).toEqual({ case: 'viewerCount', value: 3n });
    expect(errors).toHaveLength(2);
    expect(socket.state).toBe('open');
    expect(latest().closed).toBeNull();
  });

  it('keeps other listeners running when one throws', async () => {
    const socket = makeSocket();
    const received: number[] = [];
    const spy = jest.spyOn(console, 'error').mockImplementation(() => {});
    socket.on('message', () => {
      throw new Error('listener bug');
    });
    socket.on('message', (message) => received.push(message.type));
    socket.connect();
    latest().serverOpens();
    latest().serverSends(encodeMessage({ type: MessageType.CURRENT }).slice().buffer);
    await flush();
    expect(received).toEqual([MessageType.CURRENT]);
    spy.mockRestore();
  });
});

describe('RoomSocket sending', () => {
  it('stamps timestamp = clock() as bigint Unix ms, and the clock can be replaced', () => {
    let now = 1_700_000_000_000;
    const socket = makeSocket('t', () => now);
    socket.connect();
    latest().serverOpens();

    expect(socket.sendStatus({ isPlaying: true, currentTime: 12.5, playbackRate: 1 })).toBe(true);
    const status = decodeMessage(latest().sent[0]);
    expect(status.type).toBe(MessageType.STATUS);
    expect(status.timestamp).toBe(1_700_000_000_000n);
    expect(status.payload.value).toMatchObject({ isPlaying: true, currentTime: 12.5, playbackRate: 1 });

    socket.setClock(() => now + 5000);
    now += 10;
    socket.sendSync();
    expect(decodeMessage(latest().sent[1]).timestamp).toBe(1_700_000_005_010n);
  });

  it('sends chat, check-status and expired frames', () => {
    const socket = makeSocket();
    socket.connect();
    latest().serverOpens();
    socket.sendChat('hello');
    socket.sendCheckStatus({ isPlaying: false, currentTime: 3, playbackRate: 1 });
    socket.sendExpired(4_294_967_295);
    const [chat, check, expired] = latest().sent.map(decodeMessage);
    expect(chat.payload).toEqual({ case: 'chatContent', value: 'hello' });
    expect(check.type).toBe(MessageType.CHECK_STATUS);
    expect(expired.payload).toEqual({ case: 'expirationId', value: 4_294_967_295n });
  });

  it('drops messages while not open', () => {
    const socket = makeSocket();
    socket.connect();
    expect(socket.sendChat('too early')).toBe(false);
    expect(latest().sent).toHaveLength(0);
  });
});

describe('RoomSocket reconnect', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('backs off exponentially with jitter, capped', () => {
    const backoff = { initialMs: 500, maxMs: 8000, factor: 2 };
    expect(reconnectDelayMs(1, backoff, () => 0)).toBe(250);
    expect(reconnectDelayMs(1, backoff, () => 0.999)).toBe(500); // 250 + 249.75, rounded
    expect(reconnectDelayMs(3, backoff, () => 0)).toBe(1000);
    expect(reconnectDelayMs(20, backoff, () => 0.999)).toBe(7996);
    expect(reconnectDelayMs(20, backoff, () => 0)).toBe(4000);
  });

  it('keeps retrying after many failures and resets the backoff after an open', () => {
    const socket = makeSocket();
    const closes: Array<number | null> = [];
    const opens: boolean[] = [];
    socket.on('close', ({ retryInMs }) => closes.push(retryInMs));
    socket.on('open', ({ reconnected }) => opens.push(reconnected));
    socket.connect();
    latest().serverOpens();

    for (let attempt = 0; attempt < 10; attempt += 1) {
      latest().serverCloses();
      expect(socket.state).toBe('closed');
      jest.advanceTimersByTime(closes[closes.length - 1] ?? 0);
      expect(socket.state).toBe('connecting');
    }
    expect(FakeWebSocket.instances).toHaveLength(11);
    // 0.5 jitter: 300, 600, 1200, then capped at 2400
    expect(closes).toEqual([300, 600, 1200, 2400, 2400, 2400, 2400, 2400, 2400, 2400]);

    latest().serverOpens();
    expect(opens).toEqual([false, true]);
    latest().serverCloses();
    expect(closes[closes.length - 1]).toBe(300);
  });

  it('never waits more than 3.2 s between attempts, so a restarted server has everyone back within seconds', () => {
    for (const random of [() => 0, () => 0.5, () => 0.999]) {
      const waits = Array.from({ length: 50 }, (_, i) => reconnectDelayMs(i + 1, undefined, random));
      expect(Math.max(...waits)).toBeLessThanOrEqual(3200);
      expect(Math.min(...waits)).toBeGreaterThanOrEqual(200);
    }
  });

  it('reads the token again on every attempt', () => {
    let token: string | null = 'first';
    const socket = new RoomSocket({
      roomId: ROOM,
      origin: () => 'http://localhost:1',
      token: () => token,
      random: () => 0,
      createWebSocket: (url, protocols) => new FakeWebSocket(url, protocols),
    });
    socket.connect();
    token = 'second';
    latest().serverCloses();
    jest.runOnlyPendingTimers();
    expect(latest().protocols).toEqual(['second']);
  });

  it('stops for good on close()', () => {
    const socket = makeSocket();
    socket.connect();
    latest().serverOpens();
    const first = latest();
    socket.close();
    expect(first.closed).toEqual({ code: 1000, reason: 'closed by client' });
    first.serverCloses(1000);
    jest.advanceTimersByTime(60_000);
    expect(FakeWebSocket.instances).toHaveLength(1);
    expect(socket.state).toBe('closed');
  });

  it('reconnectNow skips the wait', () => {
    const socket = makeSocket();
    socket.connect();
    latest().serverCloses();
    expect(FakeWebSocket.instances).toHaveLength(1);
    socket.reconnectNow();
    expect(FakeWebSocket.instances).toHaveLength(2);
    jest.advanceTimersByTime(10_000);
    expect(FakeWebSocket.instances).toHaveLength(2);
  });
});
