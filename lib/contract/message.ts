/**
 * Encoding and decoding of the room WebSocket frames (docs/contract.md §6.2, §6.3): one binary
 * protobuf `proto.Message` per frame. `timestamp` is sfixed64 Unix ms and `expirationId` fixed64,
 * which @bufbuild/protobuf represents as bigint; these helpers convert at the edge. The browser
 * loads this module only when its room socket opens (lib/ws/room-socket.ts `loadRoomCodec`); what
 * the hall needs before that is in ./message-type.ts.
 */
import { create, fromBinary, toBinary, type MessageInitShape } from '@bufbuild/protobuf';
import { MessageSchema, type Message } from '@/lib/proto/message_pb';

// The generated enum itself (its members are types too); ./message-type.ts has the same numbers.
export { MessageType } from '@/lib/proto/message_pb';
export { timestampMs } from './message-type';
export type { Message };

/** Builds and encodes one frame. Throws only on a programming error (wrong field types). */
export function encodeMessage(init: MessageInitShape<typeof MessageSchema>): Uint8Array {
  return toBinary(MessageSchema, create(MessageSchema, init));
}

/**
 * Decodes one binary frame. Throws on malformed bytes: the caller closes that socket
 * (the server) or reports the error (the client).
 */
export function decodeMessage(bytes: Uint8Array): Message {
  return fromBinary(MessageSchema, bytes);
}
