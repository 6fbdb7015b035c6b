/**
 * The recent chat of each room (a companion-server extension; docs/features.md "Chat that stays"):
 * the last CHAT_HISTORY_SIZE lines a room's members sent, replayed to every socket that joins. The
 * sender's name is kept as it was when they wrote (a rename later does not rewrite history), and a
 * room's lines go with the room (ON DELETE CASCADE). `createdAt` is the server's Unix ms.
 */
import type { Sqlite } from './database';

/** Lines kept per room: the newest 100. */
export const CHAT_HISTORY_SIZE = 100;

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

/** Prepared statements over `chat_messages`. */
export class ChatRepository {
  private readonly insertStmt;
  private readonly trimStmt;
  private readonly recentStmt;
  private readonly clearStmt;
  private readonly latestStmt;

  constructor(db: Sqlite) {
    this.insertStmt = db.prepare('INSERT INTO chat_messages (room_id, user_id, username, content, created_at) VALUES (?, ?, ?, ?, ?)');
    // Everything older than the room's newest CHAT_HISTORY_SIZE lines (the index walks them newest first).
    this.trimStmt = db.prepare(
      'DELETE FROM chat_messages WHERE room_id = ? AND id <= (SELECT id FROM chat_messages WHERE room_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?)',
    );
    this.recentStmt = db.prepare<[string, number], ChatRow>(
      'SELECT user_id, username, content, created_at FROM (SELECT * FROM chat_messages WHERE room_id = ? ORDER BY id DESC LIMIT ?) ORDER BY id',
    );
    this.clearStmt = db.prepare('DELETE FROM chat_messages WHERE room_id = ?');
    this.latestStmt = db.prepare<[string], { id: number }>('SELECT id FROM chat_messages WHERE room_id = ? ORDER BY id DESC LIMIT 1');
  }

  /**
   * The id of the room's newest kept line, 0 when it has none. Ids only grow (AUTOINCREMENT), so it
   * changes whenever the kept lines do: a new line, or a clear. Cheap (one index lookup).
   */
  async latestId(roomId: string): Promise<number> {
    return this.latestStmt.get(roomId)?.id ?? 0;
  }

  /** Stores one line of `roomId` and drops the room's lines beyond the newest CHAT_HISTORY_SIZE. */
  async append(roomId: string, line: ChatRecord): Promise<void> {
    this.insertStmt.run(roomId, line.userId, line.username, line.content, line.createdAt);
    this.trimStmt.run(roomId, roomId, CHAT_HISTORY_SIZE);
  }

  /** The room's kept lines, oldest first (at most CHAT_HISTORY_SIZE). */
  async recent(roomId: string): Promise<ChatRecord[]> {
    return this.recentStmt.all(roomId, CHAT_HISTORY_SIZE).map((row) => ({
      userId: row.user_id,
      username: row.username,
      content: row.content,
      createdAt: row.created_at,
    }));
  }

  /** Forgets every kept line of the room. Returns how many were removed. */
  async clear(roomId: string): Promise<number> {
    return this.clearStmt.run(roomId).changes;
  }
}
