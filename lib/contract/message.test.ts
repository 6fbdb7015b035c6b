/**
 * Protobuf round trip of the room WebSocket frames (docs/contract.md §6.3): every payload kind,
 * 64-bit fields as bigint, the optional sender, and malformed bytes.
 */
import { decodeMessage, encodeMessage, MessageType, timestampMs, type Message } from './message';

type Init = Parameters<typeof encodeMessage>[0];

function roundTrip(init: Init): Message {
  return decodeMessage(encodeMessage(init));
}

describe('room message round trip', () => {
  const timestamp = 1_735_689_600_123n;

  it('keeps the chat content and the sender', () => {
    const message = roundTrip({
      type: MessageType.CHAT,
      timestamp,
      sender: { userId: 'a'.repeat(32), username: '小明' },
      payload: { case: 'chatContent', value: '<b>hi</b> 你好' },
    });
    expect(message.type).toBe(MessageType.CHAT);
    expect(message.timestamp).toBe(timestamp);
    expect(timestampMs(message)).toBe(1_735_689_600_123);
    expect(message.sender).toMatchObject({ userId: 'a'.repeat(32), username: '小明' });
    expect(message.payload).toEqual({ case: 'chatContent', value: '<b>hi</b> 你好' });
  });

  it('leaves the sender undefined when it is not sent', () => {
    const message = roundTrip({ type: MessageType.SYNC, timestamp });
    expect(message.sender).toBeUndefined();
    expect(message.payload.case).toBeUndefined();
  });

  it('keeps an empty sender distinct from no sender', () => {
    const message = roundTrip({ type: MessageType.CURRENT, sender: { userId: '', username: '' } });
    expect(message.sender).toBeDefined();
  });

  it('keeps the error message', () => {
    const message = roundTrip({ type: MessageType.ERROR, payload: { case: 'errorMessage', value: 'message too long' } });
    expect(message.payload).toEqual({ case: 'errorMessage', value: 'message too long' });
  });

  it('keeps a playback status (seconds as doubles)', () => {
    const message = roundTrip({
      type: MessageType.STATUS,
      timestamp,
      payload: { case: 'playbackStatus', value: { isPlaying: true, currentTime: 20.125, playbackRate: 1.5 } },
    });
    expect(message.payload.case).toBe('playbackStatus');
    expect(message.payload.value).toMatchObject({ isPlaying: true, currentTime: 20.125, playbackRate: 1.5 });
  });

  it('keeps an expiration id above 2^53 exactly (fixed64)', () => {
    const value = 18_446_744_073_709_551_615n; // max uint64
    const message = roundTrip({ type: MessageType.EXPIRED, payload: { case: 'expirationId', value } });
    expect(message.payload).toEqual({ case: 'expirationId', value });
  });

  it('keeps a viewer count (int64)', () => {
    const message = roundTrip({ type: MessageType.VIEWER_COUNT, payload: { case: 'viewerCount', value: 200n } });
    expect(message.payload).toEqual({ case: 'viewerCount', value: 200n });
  });

  it('keeps WebRTC data', () => {
    const value = { data: '{"sdp":"v=0"}', to: `${'b'.repeat(32)}:conn-1`, from: `${'c'.repeat(32)}:conn-2` };
    const message = roundTrip({ type: MessageType.WEBRTC_OFFER, payload: { case: 'webrtcData', value } });
    expect(message.payload.case).toBe('webrtcData');
    expect(message.payload.value).toMatchObject(value);
  });

  it('keeps negative and large timestamps (sfixed64)', () => {
    expect(roundTrip({ type: MessageType.SYNC, timestamp: -1n }).timestamp).toBe(-1n);
    expect(roundTrip({ type: MessageType.SYNC, timestamp: 9_007_199_254_740_993n }).timestamp).toBe(9_007_199_254_740_993n);
  });

  it('encodes the timestamp as fixed 8 bytes after tag 17, as the reference client does', () => {
    const bytes = encodeMessage({ type: MessageType.SYNC, timestamp: 1n });
    // type (tag 8, value 9), timestamp (tag 17 = field 2 wire type 1, 8 little-endian bytes)
    expect(Array.from(bytes)).toEqual([8, 9, 17, 1, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('throws on an invalid wire type', () => {
    expect(() => decodeMessage(new Uint8Array([0xff, 0xff, 0xff]))).toThrow();
  });

  it('throws on a truncated frame', () => {
    const bytes = encodeMessage({ type: MessageType.CHAT, payload: { case: 'chatContent', value: 'hello world' } });
    expect(() => decodeMessage(bytes.slice(0, bytes.length - 3))).toThrow();
  });

  it('throws on a zero tag or an end-group tag with bytes after it, which the generated loop would stop at quietly', () => {
    expect(() => decodeMessage(new Uint8Array([8, 2, 0, 42, 1, 65]))).toThrow(/invalid wire data/);
    expect(() => decodeMessage(new Uint8Array([8, 2, 12, 42, 1, 65]))).toThrow(/invalid wire data/);
  });
});

describe('the wire bytes', () => {
  // Each frame as protobuf-es (this codec before ts-proto) encoded it, byte for byte: the encoding
  // SyncTV's Go server and its web client read and write (proto3, no field at its default value).
  it.each<[string, Init, string]>([
    ['a chat line with its sender', { type: MessageType.CHAT, timestamp: 1_700_000_000_123n, sender: { userId: 'u1', username: '小明' }, payload: { case: 'chatContent', value: 'hi 🎬' } }, '0802117b68e5cf8b0100001a0c0a0275311206e5b08fe6988e2a07686920f09f8eac'],
    ['a status with a negative timestamp', { type: MessageType.STATUS, timestamp: -5n, payload: { case: 'playbackStatus', value: { isPlaying: true, currentTime: 12.5, playbackRate: 1.25 } } }, '080311fbffffffffffffff3214080111000000000000294019000000000000f43f'],
    ['a paused status at 0 s (defaults left out)', { type: MessageType.CHECK_STATUS, payload: { case: 'playbackStatus', value: { isPlaying: false, currentTime: 0, playbackRate: 1 } } }, '0804320919000000000000f03f'],
    ['the largest expiration id', { type: MessageType.EXPIRED, payload: { case: 'expirationId', value: 18_446_744_073_709_551_615n } }, '080539ffffffffffffffff'],
    ['a viewer count', { type: MessageType.VIEWER_COUNT, payload: { case: 'viewerCount', value: 42n } }, '0808402a'],
    ['an error', { type: MessageType.ERROR, payload: { case: 'errorMessage', value: 'playback status is nil' } }, '08012216706c61796261636b20737461747573206973206e696c'],
    ['an offer', { type: MessageType.WEBRTC_OFFER, payload: { case: 'webrtcData', value: { data: '{"sdp":1}', to: 'a:1', from: 'b:2' } } }, '080b4a150a097b22736470223a317d1203613a311a03623a32'],
    ['a join with only its sender id', { type: MessageType.WEBRTC_JOIN, payload: { case: 'webrtcData', value: { from: 'b:2' } } }, '080e4a051a03623a32'],
    ['a bare SYNC', { type: MessageType.SYNC }, '0809'],
    ['an empty chat line (a oneof member is written even at its default)', { type: MessageType.CHAT, payload: { case: 'chatContent', value: '' } }, '08022a00'],
  ])('%s', (_name, init, hex) => {
    expect(Buffer.from(encodeMessage(init)).toString('hex')).toBe(hex);
    const decoded = decodeMessage(Buffer.from(hex, 'hex'));
    expect(decoded.type).toBe(init.type);
    expect(decoded.payload.case).toBe(init.payload?.case);
  });
});
