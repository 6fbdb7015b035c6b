/**
 * The room WebSocket's message types (docs/contract.md §6.2, `proto.MessageType`) and the frame's
 * shape, without the protobuf runtime: the hall needs them from its first render, the codec
 * (./message.ts, @bufbuild/protobuf: about 65 KB of script) only once its socket opens, and loads it
 * then (lib/ws/room-socket.ts `loadRoomCodec`), so that it does not come down before the first frame.
 *
 * The values are the generated enum's (lib/proto/message_pb.ts `MessageType`), checked name by name
 * in message-type.test.ts; the type is the generated enum, so frames and values mix freely.
 */
import type { Message, MessageType as ProtoMessageType } from '@/lib/proto/message_pb';

export type { Message };
export type MessageType = ProtoMessageType;

const NUMBERS = {
  UNKNOWN: 0,
  ERROR: 1,
  CHAT: 2,
  STATUS: 3,
  CHECK_STATUS: 4,
  EXPIRED: 5,
  CURRENT: 6,
  MOVIES: 7,
  VIEWER_COUNT: 8,
  SYNC: 9,
  MY_STATUS: 10,
  WEBRTC_OFFER: 11,
  WEBRTC_ANSWER: 12,
  WEBRTC_ICE_CANDIDATE: 13,
  WEBRTC_JOIN: 14,
  WEBRTC_LEAVE: 15,
} satisfies Record<keyof typeof ProtoMessageType, number>;

/** `proto.MessageType` as the generated TypeScript enum has it: each name's number, and each number's name. */
export const MessageType = Object.freeze({
  ...NUMBERS,
  ...Object.fromEntries(Object.entries(NUMBERS).map(([name, value]) => [value, name])),
}) as unknown as typeof ProtoMessageType;

/** `timestamp` (bigint Unix ms) as a number of Unix ms. */
export function timestampMs(message: Message): number {
  return Number(message.timestamp);
}
