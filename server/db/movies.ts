/**
 * Movies of a room (docs/contract.md §4.5, §7). `base` is the MovieBase as stored (JSON);
 * `position` orders a folder's items (insertion time in ms, as in v0.9.11); `createdAt` is Unix ms.
 */
import type { MovieBase } from '@/lib/contract/types';
import { likeOperator, limitOf, type Sql, type SqlValue } from './sql';
import { likePattern } from './users';

/** A stored movie. `parentId` is "" for the root folder. */
export interface MovieRecord {
  id: string;
  roomId: string;
  creatorId: string;
  parentId: string;
  position: number;
  createdAt: number;
  base: MovieBase;
}

/** A movie joined with its creator's username (empty when the creator was deleted). */
export interface MovieListRow extends MovieRecord {
  creator: string;
}

interface MovieRow {
  id: string;
  room_id: string;
  creator_id: string;
  parent_id: string;
  position: number;
  created_at: number;
  base: string;
  creator?: string | null;
}

function toRecord(row: MovieRow): MovieListRow {
  return {
    id: row.id,
    roomId: row.room_id,
    creatorId: row.creator_id,
    parentId: row.parent_id,
    position: row.position,
    createdAt: row.created_at,
    base: JSON.parse(row.base) as MovieBase,
    creator: row.creator ?? '',
  };
}

const SELECT = 'SELECT mv.*, u.username AS creator FROM movies mv LEFT JOIN users u ON u.id = mv.creator_id';
// A folder takes its whole subtree with it.
const DELETE_TREE = `WITH RECURSIVE tree(id) AS (
    SELECT id FROM movies WHERE room_id = ? AND id = ?
    UNION SELECT mv.id FROM movies mv JOIN tree ON mv.parent_id = tree.id
  ) DELETE FROM movies WHERE id IN (SELECT id FROM tree)`;
const SET_POSITION = 'UPDATE movies SET position = ? WHERE room_id = ? AND id = ?';

/** The `movies` table. */
export class MovieRepository {
  constructor(private readonly sql: Sql) {}

  async find(roomId: string, id: string): Promise<MovieListRow | null> {
    const row = await this.sql.get<MovieRow>(`${SELECT} WHERE mv.room_id = ? AND mv.id = ?`, [roomId, id]);
    return row ? toRecord(row) : null;
  }

  /** Number of movies and folders in a room, at any depth. */
  async countInRoom(roomId: string): Promise<number> {
    return (await this.sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM movies WHERE room_id = ?', [roomId]))?.n ?? 0;
  }

  /**
   * Inserts movies in order, with positions strictly increasing after every existing one
   * (positions are insertion times in ms, bumped when several land in the same millisecond).
   */
  async insertMany(roomId: string, creatorId: string, bases: MovieBase[], newId: () => string): Promise<MovieRecord[]> {
    return this.sql.transaction(async (tx) => {
      const now = Date.now();
      const last = await tx.get<{ p: number | null }>('SELECT MAX(position) AS p FROM movies WHERE room_id = ?', [roomId]);
      let position = Math.max(now, (last?.p ?? 0) + 1);
      const records: MovieRecord[] = [];
      for (const base of bases) {
        const record: MovieRecord = { id: newId(), roomId, creatorId, parentId: base.parentId ?? '', position: position++, createdAt: now, base };
        await tx.run('INSERT INTO movies (id, room_id, creator_id, parent_id, position, created_at, name, url, base) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)', [
          record.id,
          roomId,
          creatorId,
          record.parentId,
          record.position,
          record.createdAt,
          base.name,
          base.url,
          JSON.stringify(base),
        ]);
        records.push(record);
      }
      return records;
    });
  }

  /** One page of a folder's items (by position), plus the count of all matching items (§11 d). */
  async page(roomId: string, parentId: string, keyword: string, limit: number, offset: number): Promise<{ total: number; rows: MovieListRow[] }> {
    const op = likeOperator(this.sql);
    const filter = keyword ? ` AND (mv.name ${op} ? ESCAPE '\\' OR mv.url ${op} ? ESCAPE '\\')` : '';
    const params: SqlValue[] = keyword ? [roomId, parentId, likePattern(keyword), likePattern(keyword)] : [roomId, parentId];
    const where = `WHERE mv.room_id = ? AND mv.parent_id = ?${filter}`;
    const count = await this.sql.get<{ n: number }>(`SELECT COUNT(*) AS n FROM movies mv ${where}`, params);
    const rows = await this.sql.all<MovieRow>(`${SELECT} ${where} ORDER BY mv.position ASC, mv.id LIMIT ? OFFSET ?`, [...params, limitOf(this.sql, limit), offset]);
    return { total: count?.n ?? 0, rows: rows.map(toRecord) };
  }

  /** Deletes movies (folders with their subtrees) in one transaction. */
  async deleteMany(roomId: string, ids: string[]): Promise<void> {
    await this.sql.transaction(async (tx) => {
      for (const id of ids) await tx.run(DELETE_TREE, [roomId, id]);
    });
  }

  /** Deletes every item under `parentId` ("" = the whole room). */
  async clear(roomId: string, parentId: string): Promise<void> {
    if (!parentId) {
      await this.sql.run('DELETE FROM movies WHERE room_id = ?', [roomId]);
      return;
    }
    await this.sql.transaction(async (tx) => {
      const children = await tx.all<{ id: string }>('SELECT id FROM movies WHERE room_id = ? AND parent_id = ?', [roomId, parentId]);
      for (const child of children) await tx.run(DELETE_TREE, [roomId, child.id]);
    });
  }

  /** Swaps the positions of two movies. */
  async swap(roomId: string, a: MovieRecord, b: MovieRecord): Promise<void> {
    await this.sql.transaction(async (tx) => {
      await tx.run(SET_POSITION, [b.position, roomId, a.id]);
      await tx.run(SET_POSITION, [a.position, roomId, b.id]);
    });
  }

  /** Replaces a movie's whole base (movie edit, §4.5). */
  async replaceBase(roomId: string, id: string, base: MovieBase): Promise<void> {
    await this.sql.run('UPDATE movies SET name = ?, url = ?, base = ?, parent_id = ? WHERE room_id = ? AND id = ?', [
      base.name,
      base.url,
      JSON.stringify(base),
      base.parentId ?? '',
      roomId,
      id,
    ]);
  }
}
