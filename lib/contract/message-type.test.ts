/**
 * The message types without the protobuf runtime (./message-type.ts): the same numbers as the
 * generated enum. (That no browser module takes the codec in statically: lib/ws/room-socket.test.ts.)
 */
import { MessageType as ProtoMessageType } from '@/lib/proto/message';
import { MessageType } from './message-type';

describe('MessageType', () => {
  it("is the generated enum: every name's number and every number's name", () => {
    expect({ ...MessageType }).toEqual({ ...ProtoMessageType });
    expect(MessageType.WEBRTC_LEAVE).toBe(15);
    expect(MessageType[MessageType.CHAT]).toBe('CHAT');
  });
});
