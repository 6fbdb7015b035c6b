/**
 * The room WebSocket's message types (docs/contract.md §6.2, `proto.MessageType`) and the frame's
 * shape, without the protobuf code: the hall needs them from its first render, the codec
 * (./message.ts over lib/proto/message.ts, about 17 KB of script) only once its socket opens, and
 * loads it then (lib/ws/room-socket.ts `loadRoomCodec`).
 *
 * The values are the generated enum's (lib/proto/message.ts `MessageType`), checked name by name
 * in message-type.test.ts; the type is the generated enum, so frames and values mix freely.
 */
import type { MessageType as ProtoMessageType, Sender, Status, WebRTCData } from '@/lib/proto/message';

export type MessageType = ProtoMessageType;
export type { Sender, Status, WebRTCData };

/**
 * A frame's `payload` oneof (§6.2): which field is set (`case`, undefined for none) and its value.
 * `expirationId` is fixed64 and `viewerCount` int64, as bigint.
 */
export type MessagePayload =
  | { case: 'errorMessage'; value: string }
  | { case: 'chatContent'; value: string }
  | { case: 'playbackStatus'; value: Status }
  | { case: 'expirationId'; value: bigint }
  | { case: 'viewerCount'; value: bigint }
  | { case: 'webrtcData'; value: WebRTCData }
  | { case: undefined; value?: undefined };

/** One decoded frame. `timestamp`: sfixed64 Unix ms as bigint (0n: none); `sender`: absent on the server's own frames. */
export interface Message {
  type: MessageType;
  timestamp: bigint;
  sender?: Sender;
  payload: MessagePayload;
}

/**
 * A frame to encode: every field may be left out (proto3 defaults: 0, 0n, "", false), nested
 * messages too, field by field.
 */
export interface MessageInit {
  type?: MessageType;
  timestamp?: bigint;
  sender?: Partial<Sender>;
  payload?:
    | Exclude<MessagePayload, { case: 'playbackStatus' | 'webrtcData' }>
    | { case: 'playbackStatus'; value: Partial<Status> }
    | { case: 'webrtcData'; value: Partial<WebRTCData> };
}

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
