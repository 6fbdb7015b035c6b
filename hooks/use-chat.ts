'use client';
/**
 * The open room's chat as the room session keeps it (lib/room/session.ts, lib/room/chat.ts): live
 * CHAT frames, the companion server's replay on every connect, and the hall's own system lines;
 * newest last, at most MAX_CHAT_LINES, saved in the tab's sessionStorage.
 */
import { useAtomValue } from 'jotai';
import { useCallback } from 'react';
import { chatLinesAtom } from '@/lib/room/atoms';
import type { ChatLine } from '@/lib/room/chat';
import type { RoomSession } from '@/lib/room/session';

export type { ChatLine } from '@/lib/room/chat';
export { appendLine, MAX_CHAT_LINES } from '@/lib/room/chat';

export interface RoomChat {
  lines: ChatLine[];
  /** Adds a line of the hall's own (never sent), e.g. "playback stopped". */
  addSystemLine: (text: string) => void;
  /** Adds (or, within 2 s of their last one, replaces) the line saying what `username` did (lib/room/session.ts `addActionLine`). */
  addActionLine: (username: string, text: string) => void;
  /** Sends a line; false when the socket is not open. */
  send: (text: string) => boolean;
}

export function useChat(session: RoomSession | null): RoomChat {
  const lines = useAtomValue(chatLinesAtom);
  const addSystemLine = useCallback((text: string) => session?.addSystemLine(text), [session]);
  const addActionLine = useCallback((username: string, text: string) => session?.addActionLine(username, text), [session]);
  const send = useCallback((text: string) => session?.sendChat(text) ?? false, [session]);
  return { lines, addSystemLine, addActionLine, send };
}
