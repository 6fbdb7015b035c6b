'use client';
/**
 * The chat history of one room: CHAT frames from the socket (the server echoes our own lines too,
 * server-contract.md §6.4), newest last, at most MAX_CHAT_LINES, kept in sessionStorage so a reload
 * of the tab keeps the conversation (as the reference client does).
 */
import { useCallback, useEffect, useState } from 'react';
import { MessageType, type Message } from '@/lib/contract/message';
import { readChatLines, writeChatLines } from '@/lib/storage';

/** One chat line. `atMs` is the local receipt time (Unix ms), `text` the raw content (shown as text). */
export interface ChatLine {
  id: string;
  username: string;
  text: string;
  atMs: number;
}

export const MAX_CHAT_LINES = 200;

/** The lines saved for the room in this tab that are well-formed, newest MAX_CHAT_LINES. */
function restore(roomId: string): ChatLine[] {
  const saved = readChatLines(roomId);
  if (!Array.isArray(saved)) return [];
  return saved
    .filter((line): line is ChatLine =>
      typeof line === 'object' && line !== null && typeof line.text === 'string' && typeof line.username === 'string' && typeof line.atMs === 'number' && typeof line.id === 'string')
    .slice(-MAX_CHAT_LINES);
}

/** Appends `line`, keeping the newest `max` lines. */
export function appendLine(lines: ChatLine[], line: ChatLine, max = MAX_CHAT_LINES): ChatLine[] {
  const next = lines.length >= max ? lines.slice(lines.length - max + 1) : lines.slice();
  next.push(line);
  return next;
}

/** A CHAT frame as a chat line, or null for any other frame. */
export function chatLineOf(message: Message, atMs: number, id: string): ChatLine | null {
  if (message.type !== MessageType.CHAT || message.payload.case !== 'chatContent') return null;
  return { id, username: message.sender?.username || '?', text: message.payload.value, atMs };
}

export function useChat(roomId: string): { lines: ChatLine[]; receive: (message: Message) => void } {
  const [lines, setLines] = useState<ChatLine[]>(() => (typeof window === 'undefined' ? [] : restore(roomId)));

  useEffect(() => {
    writeChatLines(roomId, lines);
  }, [roomId, lines]);

  const receive = useCallback((message: Message) => {
    const now = Date.now();
    const line = chatLineOf(message, now, `${now}-${Math.random().toString(36).slice(2, 8)}`);
    if (line) setLines((previous) => appendLine(previous, line));
  }, []);

  return { lines, receive };
}
