/**
 * Encoding and decoding of the room WebSocket frames (docs/contract.md §6.2, §6.3): one binary
 * protobuf `proto.Message` per frame, through the code ts-proto generates from proto/message.proto
 * (lib/proto/message.ts, over @bufbuild/protobuf's wire reader and writer). `timestamp` is sfixed64
 * Unix ms and `expirationId` fixed64, as bigint. The frame's shape (./message-type.ts) keeps the
 * oneof as `{ case, value }`. The browser loads this module only when its room socket opens
 * (lib/ws/room-socket.ts `loadRoomCodec`); what the hall needs before that is in ./message-type.ts.
 */
import { BinaryReader } from '@bufbuild/protobuf/wire';
import { Message as ProtoMessage } from '@/lib/proto/message';
import type { Message, MessageInit, MessagePayload } from './message-type';

// The generated enum itself (its members are types too); ./message-type.ts has the same numbers.
export { MessageType } from '@/lib/proto/message';
export { timestampMs } from './message-type';
export type { Message, MessageInit, MessagePayload };

/** Builds and encodes one frame; fields left out are proto3's defaults. Throws only on a programming error (a 64-bit value out of range). */
export function encodeMessage(init: MessageInit): Uint8Array {
  return ProtoMessage.encode({
    type: init.type ?? 0,
    timestamp: init.timestamp ?? 0n,
    sender: init.sender ? { userId: '', username: '', ...init.sender } : undefined,
    payload: protoPayload(init.payload),
  }).finish();
}

/**
 * Decodes one binary frame. Throws on malformed bytes (a truncated field, an unknown wire type, a
 * zero or end-group tag, bytes left over): the caller closes that socket (the server) or reports
 * the error (the client).
 */
export function decodeMessage(bytes: Uint8Array): Message {
  const reader = new BinaryReader(bytes);
  const decoded = ProtoMessage.decode(reader);
  // The generated loop stops quietly at a zero or end-group tag; a frame is one whole message.
  if (reader.pos !== reader.len) throw new Error('invalid wire data: a zero or end-group tag');
  const payload = decoded.payload ? ({ case: decoded.payload.$case, value: decoded.payload.value } as MessagePayload) : { case: undefined };
  return { type: decoded.type, timestamp: decoded.timestamp, ...(decoded.sender ? { sender: decoded.sender } : {}), payload };
}

/** The init's payload as the generated code has it, nested messages completed with their defaults. */
function protoPayload(payload: MessageInit['payload']): ProtoMessage['payload'] {
  if (payload?.case === undefined) return undefined;
  switch (payload.case) {
    case 'playbackStatus':
      return { $case: 'playbackStatus', value: { isPlaying: false, currentTime: 0, playbackRate: 0, ...payload.value } };
    case 'webrtcData':
      return { $case: 'webrtcData', value: { data: '', to: '', from: '', ...payload.value } };
    default:
      return { $case: payload.case, value: payload.value } as ProtoMessage['payload'];
  }
}
