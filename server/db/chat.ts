/**
 * The recent chat of each room (a companion-server extension; docs/features.md "Chat that stays"):
 * the last CHAT_HISTORY_SIZE lines a room's members sent, replayed to every socket that joins. The
 * sender's name is kept as it was when they wrote (a rename later does not rewrite history), and a
 * room's lines go with the room (ON DELETE CASCADE). `createdAt` is the server's Unix ms.
 */
import type { Sql } from './sql';

/** Lines kept per room: the newest 100. */
export const CHAT_HISTORY_SIZE = 100;

/**
 * Most of a room's kept lines that one sender may hold: their newest 50. A flood from one account
 * (docs/security.md "Room sockets") then leaves the other half of the history to everyone else;
 * guests, who share one user id, share one half.
 */
export const CHAT_SHARE_PER_USER = CHAT_HISTORY_SIZE / 2;

/** A room's old lines are dropped after every TRIM_EVERY lines an instance stores for it. */
const TRIM_EVERY = 10;

/** One stored chat line. */
export interface ChatRecord {
  userId: string;
  username: string;
  content: string;
  createdAt: number;
}

interface ChatRow {
  user_id: string;
  username: string;
  content: string;
  created_at: number;
}

/** The `chat_messages` table. */
export class ChatRepository {
  /** Lines stored per room since its last trim, below TRIM_EVERY (rooms with none are absent). */
  private readonly untrimmed = new Map<string, number>();

  constructor(private readonly sql: Sql) {}

  /**
   * The id of the room's newest kept line, 0 when it has none. Ids only grow (AUTOINCREMENT, an
   * identity column in PostgreSQL), so it changes whenever the kept lines do: a new line, or a
   * clear. Cheap (one index lookup).
   */
  async latestId(roomId: string): Promise<number> {
    return (await this.sql.get<{ id: number }>('SELECT id FROM chat_messages WHERE room_id = ? ORDER BY id DESC LIMIT 1', [roomId]))?.id ?? 0;
  }

  /**
   * Stores one line of `roomId`; after every TRIM_EVERY lines it stored for the room it also drops
   * each sender's lines beyond their newest CHAT_SHARE_PER_USER, then the room's lines beyond the
   * newest CHAT_HISTORY_SIZE. No transaction, and mostly one statement:
   * on PostgreSQL every query is a round trip on a path each chat line takes. The line is kept once
   * the insert succeeds; a room holds at most TRIM_EVERY lines per instance more than its history
   * (`recent` reads only the newest), until the next trim.
   */
  async append(roomId: string, line: ChatRecord): Promise<void> {
    await this.sql.run('INSERT INTO chat_messages (room_id, user_id, username, content, created_at) VALUES (?, ?, ?, ?, ?)', [
      roomId,
      line.userId,
      line.username,
      line.content,
      line.createdAt,
    ]);
    const untrimmed = (this.untrimmed.get(roomId) ?? 0) + 1;
    if (untrimmed < TRIM_EVERY) {
      this.untrimmed.set(roomId, untrimmed);
      return;
    }
    this.untrimmed.delete(roomId);
    // Each sender's lines beyond their newest CHAT_SHARE_PER_USER (a window function: SQLite 3.25+, PostgreSQL).
    await this.sql.run(
      'DELETE FROM chat_messages WHERE id IN (SELECT id FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY id DESC) AS n FROM chat_messages WHERE room_id = ?) ranked WHERE n > ?)',
      [roomId, CHAT_SHARE_PER_USER],
    );
    // Everything older than the room's newest CHAT_HISTORY_SIZE lines (the index walks them newest first).
    await this.sql.run('DELETE FROM chat_messages WHERE room_id = ? AND id <= (SELECT id FROM chat_messages WHERE room_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?)', [
      roomId,
      roomId,
      CHAT_HISTORY_SIZE,
    ]);
  }

  /** The room's kept lines, oldest first (at most CHAT_HISTORY_SIZE). */
  async recent(roomId: string): Promise<ChatRecord[]> {
    const rows = await this.sql.all<ChatRow>(
      'SELECT user_id, username, content, created_at FROM (SELECT * FROM chat_messages WHERE room_id = ? ORDER BY id DESC LIMIT ?) newest ORDER BY id',
      [roomId, CHAT_HISTORY_SIZE],
    );
    return rows.map((row) => ({ userId: row.user_id, username: row.username, content: row.content, createdAt: row.created_at }));
  }

  /** Forgets every kept line of the room. Returns how many were removed. */
  async clear(roomId: string): Promise<number> {
    this.untrimmed.delete(roomId);
    return (await this.sql.run('DELETE FROM chat_messages WHERE room_id = ?', [roomId])).changes;
  }
}
