'use client';
/**
 * The chat of one room (lib/room/chat.ts): live CHAT frames from the room socket, the companion
 * server's replay of the room's recent chat on every connect (the CHAT frames before the
 * connection's first other frame, its VIEWER_COUNT), and the hall's own system lines. Newest last,
 * at most MAX_CHAT_LINES, kept in sessionStorage so that a reload of the tab keeps the conversation
 * even against a v0.9.11 server, which replays nothing.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { MessageType, type Message } from '@/lib/contract/message';
import { appendLine, chatLineOf, lineId, mergeReplay, validLines, type ChatLine } from '@/lib/room/chat';
import { readChatLines, writeChatLines } from '@/lib/storage';
import type { ServerClock } from '@/lib/sync/clock';
import type { RoomSocket } from '@/lib/ws/room-socket';
import { useRoomSocketEvent } from './use-room-socket';

export type { ChatLine } from '@/lib/room/chat';
export { appendLine, MAX_CHAT_LINES } from '@/lib/room/chat';

export interface ChatOptions {
  /**
   * The server keeps the room's chat (the companion server's `chatHistory` public setting): its
   * replay, even an empty one, is what the room said, so it replaces the tab's saved lines.
   */
  serverKeepsHistory: boolean;
  /** The socket's server clock, which moves a replayed line's server time onto the local clock. */
  clock: ServerClock | null;
}

export interface RoomChat {
  lines: ChatLine[];
  /** Adds a line of the hall's own (never sent), e.g. "playback stopped". */
  addSystemLine: (text: string) => void;
}

export function useChat(roomId: string, socket: RoomSocket | null, { serverKeepsHistory, clock }: ChatOptions): RoomChat {
  const [lines, setLines] = useState<ChatLine[]>(() => (typeof window === 'undefined' ? [] : validLines(readChatLines(roomId))));
  // The replay of the connection being opened: CHAT frames collect here until the first other frame.
  const replay = useRef<ChatLine[] | null>(null);

  useEffect(() => {
    writeChatLines(roomId, lines);
  }, [roomId, lines]);

  useRoomSocketEvent(socket, 'open', () => {
    replay.current = [];
  });

  useRoomSocketEvent(socket, 'message', (message: Message) => {
    const now = Date.now();
    const replaying = replay.current;
    if (message.type === MessageType.CHAT) {
      const toLocalMs = (serverMs: number) => serverMs - (clock && clock.sampleCount > 0 ? clock.offsetMs : 0);
      const line = chatLineOf(message, now, replaying !== null, toLocalMs);
      if (!line) return;
      if (replaying) replaying.push(line);
      else setLines((previous) => appendLine(previous, line));
      return;
    }
    if (!replaying) return;
    replay.current = null;
    if (replaying.length > 0 || serverKeepsHistory) setLines((previous) => mergeReplay(previous, replaying));
  });

  const addSystemLine = useCallback((text: string) => {
    const atMs = Date.now();
    setLines((previous) => appendLine(previous, { id: lineId(atMs), username: '', text, atMs, system: true }));
  }, []);

  return { lines, addSystemLine };
}
