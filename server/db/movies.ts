/**
 * Movies of a room (docs/contract.md §4.5, §7). `base` is the MovieBase as stored (JSON);
 * `position` orders a folder's items (insertion time in ms, as in v0.9.11); `createdAt` is Unix ms.
 */
import type { MovieBase } from '@/lib/contract/types';
import type { Sqlite } from './database';
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
const KEYWORD = "(mv.name LIKE ? ESCAPE '\\' OR mv.url LIKE ? ESCAPE '\\')";

/** Prepared statements over `movies`. */
export class MovieRepository {
  private readonly db: Sqlite;
  private readonly byIdStmt;
  private readonly insertStmt;
  private readonly pageStmt;
  private readonly pageKeywordStmt;
  private readonly countStmt;
  private readonly countKeywordStmt;
  private readonly deleteTreeStmt;
  private readonly clearRootStmt;
  private readonly maxPositionStmt;
  private readonly countRoomStmt;
  private readonly setPositionStmt;
  private readonly updateBaseStmt;

  constructor(db: Sqlite) {
    this.db = db;
    this.byIdStmt = db.prepare<[string, string], MovieRow>(`${SELECT} WHERE mv.room_id = ? AND mv.id = ?`);
    this.insertStmt = db.prepare(
      'INSERT INTO movies (id, room_id, creator_id, parent_id, position, created_at, name, url, base) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.pageStmt = db.prepare<[string, string, number, number], MovieRow>(
      `${SELECT} WHERE mv.room_id = ? AND mv.parent_id = ? ORDER BY mv.position ASC, mv.id LIMIT ? OFFSET ?`,
    );
    this.pageKeywordStmt = db.prepare<[string, string, string, string, number, number], MovieRow>(
      `${SELECT} WHERE mv.room_id = ? AND mv.parent_id = ? AND ${KEYWORD} ORDER BY mv.position ASC, mv.id LIMIT ? OFFSET ?`,
    );
    this.countStmt = db.prepare<[string, string], { n: number }>(
      'SELECT COUNT(*) AS n FROM movies mv WHERE mv.room_id = ? AND mv.parent_id = ?',
    );
    this.countKeywordStmt = db.prepare<[string, string, string, string], { n: number }>(
      `SELECT COUNT(*) AS n FROM movies mv WHERE mv.room_id = ? AND mv.parent_id = ? AND ${KEYWORD}`,
    );
    // A folder takes its whole subtree with it.
    this.deleteTreeStmt = db.prepare(
      `WITH RECURSIVE tree(id) AS (
         SELECT id FROM movies WHERE room_id = ? AND id = ?
         UNION SELECT mv.id FROM movies mv JOIN tree ON mv.parent_id = tree.id
       ) DELETE FROM movies WHERE id IN (SELECT id FROM tree)`,
    );
    this.clearRootStmt = db.prepare('DELETE FROM movies WHERE room_id = ?');
    this.countRoomStmt = db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM movies WHERE room_id = ?');
    this.maxPositionStmt = db.prepare<[string], { p: number | null }>('SELECT MAX(position) AS p FROM movies WHERE room_id = ?');
    this.setPositionStmt = db.prepare('UPDATE movies SET position = ? WHERE room_id = ? AND id = ?');
    this.updateBaseStmt = db.prepare('UPDATE movies SET name = ?, url = ?, base = ?, parent_id = ? WHERE room_id = ? AND id = ?');
  }

  async find(roomId: string, id: string): Promise<MovieListRow | null> {
    const row = this.byIdStmt.get(roomId, id);
    return row ? toRecord(row) : null;
  }

  /** Number of movies and folders in a room, at any depth. */
  async countInRoom(roomId: string): Promise<number> {
    return this.countRoomStmt.get(roomId)?.n ?? 0;
  }

  /**
   * Inserts movies in order, with positions strictly increasing after every existing one
   * (positions are insertion times in ms, bumped when several land in the same millisecond).
   */
  async insertMany(roomId: string, creatorId: string, bases: MovieBase[], newId: () => string): Promise<MovieRecord[]> {
    return this.db.transaction(() => {
      const now = Date.now();
      let position = Math.max(now, (this.maxPositionStmt.get(roomId)?.p ?? 0) + 1);
      return bases.map((base) => {
        const record: MovieRecord = {
          id: newId(),
          roomId,
          creatorId,
          parentId: base.parentId ?? '',
          position: position++,
          createdAt: now,
          base,
        };
        this.insertStmt.run(
          record.id,
          roomId,
          creatorId,
          record.parentId,
          record.position,
          record.createdAt,
          base.name,
          base.url,
          JSON.stringify(base),
        );
        return record;
      });
    })();
  }

  /** One page of a folder's items (by position), plus the count of all matching items (§11 d). */
  async page(
    roomId: string,
    parentId: string,
    keyword: string,
    limit: number,
    offset: number,
  ): Promise<{ total: number; rows: MovieListRow[] }> {
    if (keyword) {
      const like = likePattern(keyword);
      return {
        total: this.countKeywordStmt.get(roomId, parentId, like, like)?.n ?? 0,
        rows: this.pageKeywordStmt.all(roomId, parentId, like, like, limit, offset).map(toRecord),
      };
    }
    return {
      total: this.countStmt.get(roomId, parentId)?.n ?? 0,
      rows: this.pageStmt.all(roomId, parentId, limit, offset).map(toRecord),
    };
  }

  /** Deletes movies (folders with their subtrees) in one transaction. */
  async deleteMany(roomId: string, ids: string[]): Promise<void> {
    this.db.transaction(() => {
      for (const id of ids) this.deleteTreeStmt.run(roomId, id);
    })();
  }

  /** Deletes every item under `parentId` ("" = the whole room). */
  async clear(roomId: string, parentId: string): Promise<void> {
    if (!parentId) {
      this.clearRootStmt.run(roomId);
      return;
    }
    this.db.transaction(() => {
      const children = this.db
        .prepare<[string, string], { id: string }>('SELECT id FROM movies WHERE room_id = ? AND parent_id = ?')
        .all(roomId, parentId);
      for (const child of children) this.deleteTreeStmt.run(roomId, child.id);
    })();
  }

  /** Swaps the positions of two movies. */
  async swap(roomId: string, a: MovieRecord, b: MovieRecord): Promise<void> {
    this.db.transaction(() => {
      this.setPositionStmt.run(b.position, roomId, a.id);
      this.setPositionStmt.run(a.position, roomId, b.id);
    })();
  }

  /** Replaces a movie's whole base (movie edit, §4.5). */
  async replaceBase(roomId: string, id: string, base: MovieBase): Promise<void> {
    this.updateBaseStmt.run(base.name, base.url, JSON.stringify(base), base.parentId ?? '', roomId, id);
  }
}
