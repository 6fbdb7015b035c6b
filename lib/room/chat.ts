/**
 * The chat of the open room as lines, framework-free (hooks/use-chat.ts keeps them in React state).
 *
 * Lines come from CHAT frames (docs/contract.md §6.4: the server echoes our own lines too) and
 * from the hall itself (system lines: "now playing …", "playback stopped", "list cleared"; never
 * sent). The companion server also replays a room's recent chat to every socket that joins, as
 * ordinary CHAT frames sent before the connection's first VIEWER_COUNT (docs/features.md "Chat that stays");
 * a v0.9.11 server replays nothing and sends VIEWER_COUNT first, so there the tab's own saved lines
 * are all there is.
 */
import { MessageType, type Message } from '@/lib/contract/message-type';

/**
 * One line of the chat. `atMs` is when it was said on this device's clock (Unix ms): the local
 * receipt time of a live line, the server's `timestamp` moved onto the local clock for a replayed one.
 */
export interface ChatLine {
  id: string;
  username: string;
  text: string;
  atMs: number;
  /** The CHAT frame's `timestamp` (server Unix ms), which names a line in a replay; absent on system lines. */
  serverAtMs?: number;
  /** Said before this tab joined: it came in the server's replay and was not seen live here. */
  earlier?: boolean;
  /** Written by the hall, not by a person (the username is empty). */
  system?: boolean;
}

/** Lines kept (in memory and in the tab's sessionStorage). */
export const MAX_CHAT_LINES = 200;

/** A fresh line id. */
export function lineId(atMs: number): string {
  return `${atMs}-${Math.random().toString(36).slice(2, 8)}`;
}

/**
 * A CHAT frame as a chat line, or null for any other frame. `receivedAtMs` is the local time it
 * arrived; `toLocalMs` moves a server time onto the local clock (for replayed lines).
 */
export function chatLineOf(message: Message, receivedAtMs: number, replayed = false, toLocalMs: (serverMs: number) => number = (ms) => ms): ChatLine | null {
  if (message.type !== MessageType.CHAT || message.payload.case !== 'chatContent') return null;
  const serverAtMs = Number(message.timestamp) || undefined;
  const atMs = replayed && serverAtMs ? toLocalMs(serverAtMs) : receivedAtMs;
  return { id: lineId(atMs), username: message.sender?.username || '?', text: message.payload.value, atMs, serverAtMs, earlier: replayed || undefined };
}

/** Appends `line`, keeping the newest `max` lines. */
export function appendLine(lines: ChatLine[], line: ChatLine, max = MAX_CHAT_LINES): ChatLine[] {
  const next = lines.length >= max ? lines.slice(lines.length - max + 1) : lines.slice();
  next.push(line);
  return next;
}

/** What names a person's line across a replay: the server's time, the sender and the text. */
const replayKey = (line: ChatLine) => `${line.serverAtMs}\n${line.username}\n${line.text}`;

/**
 * The lines after a server replay (`replay`, oldest first): the replay is what the room said, so it
 * replaces the people's lines shown before; a replayed line already shown live keeps its id and its
 * place among the live lines (only lines this tab never saw are `earlier`); system lines stay, in
 * time order. The newest `max` are kept.
 */
export function mergeReplay(previous: ChatLine[], replay: ChatLine[], max = MAX_CHAT_LINES): ChatLine[] {
  const shown = new Map(previous.filter((line) => !line.system && line.serverAtMs !== undefined).map((line) => [replayKey(line), line]));
  const said = replay.map((line) => {
    const seen = shown.get(replayKey(line));
    return seen ? { ...line, id: seen.id, atMs: seen.atMs, earlier: seen.earlier } : line;
  });
  const merged = [...said, ...previous.filter((line) => line.system)].sort((a, b) => a.atMs - b.atMs);
  return merged.slice(-max);
}

/** Saved lines (parsed JSON of unknown shape) that are well-formed, newest `max`. */
export function validLines(saved: unknown, max = MAX_CHAT_LINES): ChatLine[] {
  if (!Array.isArray(saved)) return [];
  return saved
    .filter(
      (line): line is ChatLine =>
        typeof line === 'object' &&
        line !== null &&
        typeof line.text === 'string' &&
        typeof line.username === 'string' &&
        typeof line.atMs === 'number' &&
        typeof line.id === 'string',
    )
    .slice(-max);
}
