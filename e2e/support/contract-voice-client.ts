import type { Page } from '@playwright/test';

/**
 * A second voice client, built only from the wire contract (docs/contract.md §6) and written
 * without this app's code, to test that our client and another implementation share a call: it
 * opens the room socket itself, encodes and decodes the protobuf frames by hand, and does what
 * the reference client does (docs/reference-client.md): on a JOIN it makes the offer with its
 * microphone, on an OFFER it answers, it sends every ICE candidate as it comes (even before its
 * offer is out), and it offers no video. It runs in `page` (any document of a secure origin, for the
 * microphone), driven through `window.contractVoice`.
 */
export interface ContractVoiceClient {
  /** Sends WEBRTC_JOIN (after opening the microphone). */
  join(): Promise<void>;
  /** Sends WEBRTC_LEAVE and closes every connection. */
  leave(): Promise<void>;
  /** The highest audio level (0–1) received now from anyone, from `getStats`. */
  inboundLevel(): Promise<number>;
  /** How many peer connections are connected. */
  connected(): Promise<number>;
}

/** Opens the room socket of `roomId` with `token` in `page` and returns the client's controls. */
export async function startContractVoiceClient(page: Page, origin: string, roomId: string, token: string): Promise<ContractVoiceClient> {
  await page.evaluate(
    async ({ wsUrl, token: userToken }) => {
      // Message fields (§6.1): type 1 (varint), timestamp 2 (sfixed64), sender 3, webrtc_data 9.
      // WebRTCData: data 1, to 2, from 3. Sender: user_id 1, username 2.
      const OFFER = 11;
      const ANSWER = 12;
      const ICE = 13;
      const JOIN = 14;
      const LEAVE = 15;
      const text = new TextEncoder();
      const varint = (value: number) => {
        const bytes: number[] = [];
        while (value > 0x7f) {
          bytes.push((value & 0x7f) | 0x80);
          value = Math.floor(value / 128);
        }
        bytes.push(value);
        return bytes;
      };
      const field = (number: number, payload: Uint8Array) => [...varint((number << 3) | 2), ...varint(payload.length), ...payload];
      const encode = (type: number, webrtc?: { data: string; to: string }) => {
        const bytes = [...varint(1 << 3), ...varint(type)];
        if (webrtc) bytes.push(...field(9, new Uint8Array([...field(1, text.encode(webrtc.data)), ...field(2, text.encode(webrtc.to))])));
        return new Uint8Array(bytes);
      };
      /** Every field of a message as number → last value (varints as numbers, LEN as bytes). */
      const decode = (bytes: Uint8Array) => {
        const fields = new Map<number, number | Uint8Array>();
        let at = 0;
        const readVarint = () => {
          let value = 0;
          let scale = 1;
          for (;;) {
            const byte = bytes[at++];
            value += (byte & 0x7f) * scale;
            if (byte < 0x80) return value;
            scale *= 128;
          }
        };
        while (at < bytes.length) {
          const key = readVarint();
          const wire = key & 7;
          if (wire === 0) fields.set(key >>> 3, readVarint());
          else if (wire === 1) at += 8;
          else if (wire === 5) at += 4;
          else {
            const length = readVarint();
            fields.set(key >>> 3, bytes.subarray(at, at + length));
            at += length;
          }
        }
        return fields;
      };
      const textOf = (value: number | Uint8Array | undefined) => (value instanceof Uint8Array ? new TextDecoder().decode(value) : '');

      const microphone = await navigator.mediaDevices.getUserMedia({ audio: true, video: false });
      const socket = new WebSocket(wsUrl, [userToken]);
      socket.binaryType = 'arraybuffer';
      await new Promise((resolve, reject) => {
        socket.onopen = resolve;
        socket.onerror = reject;
      });
      const peers = new Map<string, RTCPeerConnection>();
      const open = (from: string) => {
        peers.get(from)?.close();
        const connection = new RTCPeerConnection({ iceServers: [] });
        peers.set(from, connection);
        for (const track of microphone.getTracks()) connection.addTrack(track, microphone);
        connection.onicecandidate = (event) => {
          if (event.candidate) socket.send(encode(ICE, { data: JSON.stringify(event.candidate), to: from }));
        };
        connection.ontrack = (event) => {
          const audio = new Audio();
          audio.srcObject = event.streams[0] ?? new MediaStream([event.track]);
          void audio.play().catch(() => undefined);
        };
        return connection;
      };
      socket.onmessage = async (event) => {
        const message = decode(new Uint8Array(event.data as ArrayBuffer));
        const type = message.get(1);
        const webrtc = message.get(9);
        if (!(webrtc instanceof Uint8Array)) return;
        const data = decode(webrtc);
        const from = textOf(data.get(3));
        const payload = textOf(data.get(1));
        if (type === JOIN) {
          const connection = open(from);
          await connection.setLocalDescription(await connection.createOffer());
          socket.send(encode(OFFER, { data: JSON.stringify(connection.localDescription), to: from }));
        } else if (type === OFFER) {
          const connection = open(from);
          await connection.setRemoteDescription(JSON.parse(payload));
          await connection.setLocalDescription(await connection.createAnswer());
          socket.send(encode(ANSWER, { data: JSON.stringify(connection.localDescription), to: from }));
        } else if (type === ANSWER) {
          await peers.get(from)?.setRemoteDescription(JSON.parse(payload));
        } else if (type === ICE) {
          await peers.get(from)?.addIceCandidate(JSON.parse(payload)).catch(() => undefined);
        } else if (type === LEAVE) {
          peers.get(from)?.close();
          peers.delete(from);
        }
      };
      (window as unknown as { contractVoice: unknown }).contractVoice = {
        join: () => socket.send(encode(JOIN)),
        leave: () => {
          socket.send(encode(LEAVE));
          for (const connection of peers.values()) connection.close();
          peers.clear();
        },
        inboundLevel: async () => {
          let level = 0;
          for (const connection of peers.values()) {
            (await connection.getStats()).forEach((entry: { type?: string; kind?: string; audioLevel?: number }) => {
              if (entry.type === 'inbound-rtp' && entry.kind === 'audio') level = Math.max(level, entry.audioLevel ?? 0);
            });
          }
          return level;
        },
        connected: () => [...peers.values()].filter((connection) => connection.connectionState === 'connected').length,
      };
    },
    { wsUrl: `${origin.replace(/^http/, 'ws')}/api/room/ws?roomId=${encodeURIComponent(roomId)}`, token },
  );
  type Controls = { join(): void; leave(): void; inboundLevel(): Promise<number>; connected(): number };
  const call = <T>(name: keyof Controls) =>
    page.evaluate((method) => (window as unknown as { contractVoice: Record<string, () => unknown> }).contractVoice[method](), name) as Promise<T>;
  return {
    join: () => call<void>('join'),
    leave: () => call<void>('leave'),
    inboundLevel: () => call<number>('inboundLevel'),
    connected: () => call<number>('connected'),
  };
}
