/**
 * Movies of a room (docs/contract.md §4.5, §7). `base` is the MovieBase as stored (JSON);
 * `position` orders a folder's items (insertion time in ms, as in v0.9.11); `createdAt` is Unix ms.
 */
import type { MovieBase } from '@/lib/contract/types';
import type { Db, MovieRow, SqlDialect } from './schema';
import { asNumber, contains, paged } from './sql';

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

function toRecord(row: MovieRow & { creator?: string | null }): MovieListRow {
  return {
    id: row.id,
    roomId: row.room_id,
    creatorId: row.creator_id,
    parentId: row.parent_id,
    position: Number(row.position),
    createdAt: Number(row.created_at),
    base: JSON.parse(row.base) as MovieBase,
    creator: row.creator ?? '',
  };
}

/** Deletes the movie `id` of `roomId` through `db`, a folder with its whole subtree. */
async function deleteTree(db: Db, roomId: string, id: string): Promise<void> {
  await db
    .withRecursive('tree(id)', (tree) =>
      tree
        .selectFrom('movies')
        .select('id')
        .where('room_id', '=', roomId)
        .where('id', '=', id)
        .union(tree.selectFrom('movies as mv').innerJoin('tree', 'tree.id', 'mv.parent_id').select('mv.id')),
    )
    .deleteFrom('movies')
    .where('id', 'in', (eb) => eb.selectFrom('tree').select('tree.id'))
    .execute();
}

/** The `movies` table. */
export class MovieRepository {
  constructor(
    private readonly db: Db,
    private readonly dialect: SqlDialect,
  ) {}

  /** Movies with their creator's username. */
  private withCreator() {
    return this.db.selectFrom('movies as mv').leftJoin('users as u', 'u.id', 'mv.creator_id').selectAll('mv').select('u.username as creator');
  }

  async find(roomId: string, id: string): Promise<MovieListRow | null> {
    const row = await this.withCreator().where('mv.room_id', '=', roomId).where('mv.id', '=', id).executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  /** Number of movies and folders in a room, at any depth. */
  async countInRoom(roomId: string): Promise<number> {
    return asNumber((await this.db.selectFrom('movies').select((eb) => eb.fn.countAll().as('n')).where('room_id', '=', roomId).executeTakeFirst())?.n);
  }

  /**
   * Inserts movies in order, with positions strictly increasing after every existing one
   * (positions are insertion times in ms, bumped when several land in the same millisecond).
   */
  async insertMany(roomId: string, creatorId: string, bases: MovieBase[], newId: () => string): Promise<MovieRecord[]> {
    return this.db.transaction().execute(async (tx) => {
      const now = Date.now();
      const last = await tx.selectFrom('movies').select((eb) => eb.fn.max('position').as('p')).where('room_id', '=', roomId).executeTakeFirst();
      let position = Math.max(now, asNumber(last?.p) + 1);
      const records: MovieRecord[] = [];
      for (const base of bases) {
        const record: MovieRecord = { id: newId(), roomId, creatorId, parentId: base.parentId ?? '', position: position++, createdAt: now, base };
        await tx
          .insertInto('movies')
          .values({
            id: record.id,
            room_id: roomId,
            creator_id: creatorId,
            parent_id: record.parentId,
            position: record.position,
            created_at: record.createdAt,
            name: base.name,
            url: base.url,
            base: JSON.stringify(base),
          })
          .execute();
        records.push(record);
      }
      return records;
    });
  }

  /** One page of a folder's items (by position), plus the count of all matching items (§11 d). */
  async page(roomId: string, parentId: string, keyword: string, limit: number, offset: number): Promise<{ total: number; rows: MovieListRow[] }> {
    const { dialect } = this;
    let query = this.withCreator().where('mv.room_id', '=', roomId).where('mv.parent_id', '=', parentId);
    if (keyword) query = query.where((eb) => eb.or([contains(dialect, eb.ref('mv.name'), keyword), contains(dialect, eb.ref('mv.url'), keyword)]));
    const total = asNumber(
      (
        await query
          .clearSelect()
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirst()
      )?.n,
    );
    const rows = await paged(query.orderBy('mv.position', 'asc').orderBy('mv.id'), limit, offset).execute();
    return { total, rows: rows.map(toRecord) };
  }

  /** Deletes movies (folders with their subtrees) in one transaction. */
  async deleteMany(roomId: string, ids: string[]): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      for (const id of ids) await deleteTree(tx, roomId, id);
    });
  }

  /** Deletes every item under `parentId` ("" = the whole room). */
  async clear(roomId: string, parentId: string): Promise<void> {
    if (!parentId) {
      await this.db.deleteFrom('movies').where('room_id', '=', roomId).execute();
      return;
    }
    await this.db.transaction().execute(async (tx) => {
      const children = await tx.selectFrom('movies').select('id').where('room_id', '=', roomId).where('parent_id', '=', parentId).execute();
      for (const child of children) await deleteTree(tx, roomId, child.id);
    });
  }

  /** Swaps the positions of two movies. */
  async swap(roomId: string, a: MovieRecord, b: MovieRecord): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx.updateTable('movies').set({ position: b.position }).where('room_id', '=', roomId).where('id', '=', a.id).execute();
      await tx.updateTable('movies').set({ position: a.position }).where('room_id', '=', roomId).where('id', '=', b.id).execute();
    });
  }

  /** Replaces a movie's whole base (movie edit, §4.5). */
  async replaceBase(roomId: string, id: string, base: MovieBase): Promise<void> {
    await this.db
      .updateTable('movies')
      .set({ name: base.name, url: base.url, base: JSON.stringify(base), parent_id: base.parentId ?? '' })
      .where('room_id', '=', roomId)
      .where('id', '=', id)
      .execute();
  }
}
