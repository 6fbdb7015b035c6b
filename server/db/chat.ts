/**
 * The recent chat of each room (a companion-server extension; docs/features.md "Chat that stays"):
 * the last CHAT_HISTORY_SIZE lines a room's members sent, replayed to every socket that joins. The
 * sender's name is kept as it was when they wrote (a rename later does not rewrite history), and a
 * room's lines go with the room (ON DELETE CASCADE). `createdAt` is the server's Unix ms.
 */
import type { Db } from './schema';
import { asNumber } from './sql';

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

/** The `chat_messages` table. */
export class ChatRepository {
  /** Lines stored per room since its last trim, below TRIM_EVERY (rooms with none are absent). */
  private readonly untrimmed = new Map<string, number>();

  constructor(private readonly db: Db) {}

  /**
   * The id of the room's newest kept line, 0 when it has none. Ids only grow (AUTOINCREMENT, an
   * identity column in PostgreSQL), so it changes whenever the kept lines do: a new line, or a
   * clear. Cheap (one index lookup).
   */
  async latestId(roomId: string): Promise<number> {
    const row = await this.db.selectFrom('chat_messages').select('id').where('room_id', '=', roomId).orderBy('id', 'desc').limit(1).executeTakeFirst();
    return asNumber(row?.id);
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
    await this.db
      .insertInto('chat_messages')
      .values({ room_id: roomId, user_id: line.userId, username: line.username, content: line.content, created_at: line.createdAt })
      .execute();
    const untrimmed = (this.untrimmed.get(roomId) ?? 0) + 1;
    if (untrimmed < TRIM_EVERY) {
      this.untrimmed.set(roomId, untrimmed);
      return;
    }
    this.untrimmed.delete(roomId);
    // Each sender's lines beyond their newest CHAT_SHARE_PER_USER (a window function: SQLite 3.25+, PostgreSQL).
    await this.db
      .deleteFrom('chat_messages')
      .where('id', 'in', (eb) =>
        eb
          .selectFrom((inner) =>
            inner
              .selectFrom('chat_messages')
              .select((row) => ['id', row.fn.agg<number>('row_number').over((over) => over.partitionBy('user_id').orderBy('id', 'desc')).as('n')])
              .where('room_id', '=', roomId)
              .as('ranked'),
          )
          .select('ranked.id')
          .where('ranked.n', '>', CHAT_SHARE_PER_USER),
      )
      .execute();
    // Everything older than the room's newest CHAT_HISTORY_SIZE lines (the index walks them newest first).
    await this.db
      .deleteFrom('chat_messages')
      .where('room_id', '=', roomId)
      .where('id', '<=', (eb) => eb.selectFrom('chat_messages').select('id').where('room_id', '=', roomId).orderBy('id', 'desc').limit(1).offset(CHAT_HISTORY_SIZE))
      .execute();
  }

  /** The room's kept lines, oldest first (at most CHAT_HISTORY_SIZE). */
  async recent(roomId: string): Promise<ChatRecord[]> {
    const rows = await this.db
      .selectFrom((eb) => eb.selectFrom('chat_messages').selectAll().where('room_id', '=', roomId).orderBy('id', 'desc').limit(CHAT_HISTORY_SIZE).as('newest'))
      .select(['user_id', 'username', 'content', 'created_at'])
      .orderBy('id')
      .execute();
    return rows.map((row) => ({ userId: row.user_id, username: row.username, content: row.content, createdAt: Number(row.created_at) }));
  }

  /** Forgets every kept line of the room. Returns how many were removed. */
  async clear(roomId: string): Promise<number> {
    this.untrimmed.delete(roomId);
    return Number((await this.db.deleteFrom('chat_messages').where('room_id', '=', roomId).executeTakeFirst()).numDeletedRows);
  }
}
