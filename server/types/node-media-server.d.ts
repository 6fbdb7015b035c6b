/**
 * The parts of node-media-server 4 that the companion server uses: its RTMP protocol engine
 * (handshake, chunk stream, AMF commands) and its FLV tag writer. The package ships JavaScript with
 * JSDoc only; these are the shapes of `src/protocol/rtmp.js`, `flv.js` and `core/avpacket.js`.
 */
declare module 'node-media-server/src/core/avpacket.js' {
  /** One media message: `codec_type` 8 audio, 9 video, 18 script; `flags` 0 audio header, 1 audio frame, 2 video header, 3 key frame, 4 inter frame, 5 metadata; times in ms. */
  export default class AVPacket {
    codec_id: number;
    codec_type: number;
    duration: number;
    flags: number;
    pts: number;
    dts: number;
    size: number;
    offset: number;
    data: Buffer;
  }
}

declare module 'node-media-server/src/protocol/rtmp.js' {
  import type AVPacket from 'node-media-server/src/core/avpacket.js';
  /** What a client's publish or play names: `rtmp://host/{app}/{name}?{query}`. */
  export interface RtmpStreamRequest {
    app: string;
    name: string;
    host: string;
    query: Record<string, string | string[] | undefined>;
  }
  /** The server side of one RTMP connection: feed it the socket's bytes, it calls back. */
  export default class Rtmp {
    onConnectCallback: (request: RtmpStreamRequest) => void;
    onPlayCallback: () => void;
    onPushCallback: () => void;
    onPacketCallback: (packet: AVPacket) => void;
    onOutputCallback: (buffer: Buffer) => void;
    /** Parses bytes from the client; a string is a protocol error (then close the connection). */
    parserData(buffer: Buffer): string | null;
  }
}

declare module 'node-media-server/src/protocol/flv.js' {
  import type AVPacket from 'node-media-server/src/core/avpacket.js';
  export default class Flv {
    /** The 13-byte FLV file header (with the first PreviousTagSize). */
    static createHeader(hasAudio: boolean, hasVideo: boolean): Buffer;
    /** One FLV tag (with its PreviousTagSize) for a packet. */
    static createMessage(packet: AVPacket): Buffer;
  }
}
