/**
 * The one interface the repositories talk to: SQL text with `?` placeholders and an array of values,
 * answered asynchronously, over either database the companion server runs on (docs/deployment.md
 * "Storage"):
 * - SQLite (better-sqlite3; the embedded default, one file in the data directory): each distinct
 *   statement is compiled once and kept; a transaction holds every other caller back until it ends,
 *   because the database is one connection shared by the whole process;
 * - PostgreSQL (node-postgres `pg`, a pool; `DATABASE_URL=postgres://…`): placeholders become
 *   `$1…$n`, 64-bit integers come back as numbers (times in ms and uint32 masks fit), and a
 *   transaction runs on one pooled connection.
 * The SQL the repositories write is what both accept; where the two differ they ask `dialect`.
 */
import type Database from 'better-sqlite3';
import pg, { type Pool, type PoolClient } from 'pg';

/** A value bound to a `?`. */
export type SqlValue = string | number | bigint | null;

/** Which database answers. */
export type SqlDialect = 'sqlite' | 'postgres';

/**
 * Asynchronous access to the store's database. Every method rejects with the driver's own error (a
 * constraint violation is recognised by `isUniqueViolation`).
 */
export interface Sql {
  readonly dialect: SqlDialect;
  /** Every row of a query. */
  all<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  /** The first row of a query, or undefined. */
  get<T>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined>;
  /** Runs a statement; `changes` is the number of rows it inserted, updated or deleted. */
  run(sql: string, params?: readonly SqlValue[]): Promise<{ changes: number }>;
  /**
   * Runs `work` in one transaction, with `tx` for its statements (statements through this object
   * wait until the transaction has ended). Commits when `work` resolves, rolls back when it rejects,
   * and answers as it did. No nesting.
   */
  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T>;
}

/** Whether `error` is a UNIQUE (or primary key) violation, from either database. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  const code = (error as { code: unknown }).code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}

/** `Sql` over one better-sqlite3 connection. */
export class SqliteSql implements Sql {
  readonly dialect = 'sqlite' as const;
  private readonly statements = new Map<string, Database.Statement<unknown[], unknown>>();
  /** The transaction under way; other callers wait for it. */
  private busy: Promise<unknown> | null = null;

  constructor(private readonly db: Database.Database) {}

  all<T>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    return this.when(() => this.allNow<T>(sql, params));
  }

  get<T>(sql: string, params: readonly SqlValue[] = []): Promise<T | undefined> {
    return this.when(() => this.getNow<T>(sql, params));
  }

  run(sql: string, params: readonly SqlValue[] = []): Promise<{ changes: number }> {
    return this.when(() => this.runNow(sql, params));
  }

  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T> {
    if (this.busy) return this.busy.then(() => this.transaction(work));
    // BEGIN runs now, in this call: nothing can slip in between the check above and it.
    const done = this.inTransaction(work);
    const busy = done.then(
      () => undefined,
      () => undefined,
    );
    this.busy = busy;
    void busy.then(() => {
      if (this.busy === busy) this.busy = null;
    });
    return done;
  }

  /**
   * Runs `statement` now when no transaction is under way, else once it has ended. The check and the
   * statement happen in one turn, so a transaction cannot begin between them.
   */
  private when<T>(statement: () => T): Promise<T> {
    if (this.busy) return this.busy.then(() => this.when(statement));
    try {
      return Promise.resolve(statement());
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  private async inTransaction<T>(work: (tx: Sql) => Promise<T>): Promise<T> {
    const tx: Sql = {
      dialect: this.dialect,
      all: async <R>(sql: string, params: readonly SqlValue[] = []) => this.allNow<R>(sql, params),
      get: async <R>(sql: string, params: readonly SqlValue[] = []) => this.getNow<R>(sql, params),
      run: async (sql: string, params: readonly SqlValue[] = []) => this.runNow(sql, params),
      transaction: () => Promise.reject(new Error('nested transactions are not supported')),
    };
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const result = await work(tx);
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw error;
    }
  }

  private statement(sql: string): Database.Statement<unknown[], unknown> {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare<unknown[], unknown>(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  private allNow<T>(sql: string, params: readonly SqlValue[]): T[] {
    return this.statement(sql).all(...params) as T[];
  }

  private getNow<T>(sql: string, params: readonly SqlValue[]): T | undefined {
    return this.statement(sql).get(...params) as T | undefined;
  }

  private runNow(sql: string, params: readonly SqlValue[]): { changes: number } {
    return { changes: this.statement(sql).run(...params).changes };
  }
}

/** `sql` with its `?` placeholders numbered as PostgreSQL's `$1…$n` (none sits inside a string literal here). */
export function numberPlaceholders(sql: string): string {
  let n = 0;
  return sql.replace(/'(?:[^']|'')*'|\?/g, (match) => (match === '?' ? `$${++n}` : match));
}

type Queryable = Pick<PoolClient, 'query'>;

/** `Sql` over a node-postgres pool. */
export class PostgresSql implements Sql {
  readonly dialect = 'postgres' as const;

  constructor(private readonly pool: Pool) {}

  all<T>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    return allOn<T>(this.pool, sql, params);
  }

  async get<T>(sql: string, params: readonly SqlValue[] = []): Promise<T | undefined> {
    return (await allOn<T>(this.pool, sql, params))[0];
  }

  run(sql: string, params: readonly SqlValue[] = []): Promise<{ changes: number }> {
    return runOn(this.pool, sql, params);
  }

  async transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    const tx: Sql = {
      dialect: this.dialect,
      all: <R>(sql: string, params: readonly SqlValue[] = []) => allOn<R>(client, sql, params),
      get: async <R>(sql: string, params: readonly SqlValue[] = []) => (await allOn<R>(client, sql, params))[0],
      run: (sql: string, params: readonly SqlValue[] = []) => runOn(client, sql, params),
      transaction: () => Promise.reject(new Error('nested transactions are not supported')),
    };
    let failure: unknown = null;
    try {
      await client.query('BEGIN');
      const result = await work(tx);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      failure = error;
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      // A connection whose transaction failed may be the reason (a deadline, a lost server): the pool drops it.
      client.release(failure !== null);
    }
  }
}

/** The named statement of each query text, numbered for PostgreSQL (see `queryOf`). */
const namedStatements = new Map<string, { name: string; text: string }>();

/**
 * `sql` as node-postgres runs it: a named prepared statement for reads and writes, which each
 * connection parses and plans once and afterwards only binds and executes (SQLite's statements
 * are cached by text the same way, `SqliteSql.statement`). The texts are the repositories' own, a
 * fixed set, so the names are too; anything else (schema changes) runs unnamed.
 */
function queryOf(sql: string, params: readonly SqlValue[]): { name?: string; text: string; values: unknown[] } {
  let named = namedStatements.get(sql);
  if (!named) {
    if (!/^\s*(SELECT|INSERT|UPDATE|DELETE)\b/i.test(sql)) return { text: numberPlaceholders(sql), values: params as unknown[] };
    named = { name: `synctv_${namedStatements.size + 1}`, text: numberPlaceholders(sql) };
    namedStatements.set(sql, named);
  }
  return { ...named, values: params as unknown[] };
}

async function allOn<T>(db: Queryable, sql: string, params: readonly SqlValue[]): Promise<T[]> {
  const result = await db.query(queryOf(sql, params));
  return result.rows as T[];
}

async function runOn(db: Queryable, sql: string, params: readonly SqlValue[]): Promise<{ changes: number }> {
  const result = await db.query(queryOf(sql, params));
  return { changes: result.rowCount ?? 0 };
}

/**
 * The case-insensitive LIKE of `sql`'s database: SQLite's LIKE ignores (ASCII) case, PostgreSQL's
 * does not, and its ILIKE does. Both take `ESCAPE '\'` (users.ts `likePattern`).
 */
export function likeOperator(sql: Pick<Sql, 'dialect'>): 'LIKE' | 'ILIKE' {
  return sql.dialect === 'postgres' ? 'ILIKE' : 'LIKE';
}

/** A `LIMIT ?` value: `limit`, or no limit for a negative one (SQLite's -1, PostgreSQL's NULL). */
export function limitOf(sql: Pick<Sql, 'dialect'>, limit: number): number | null {
  return limit >= 0 ? limit : sql.dialect === 'postgres' ? null : -1;
}

/** How long (ms) a new PostgreSQL connection may take, and how long a query may wait for its answer. */
export const DB_CONNECT_TIMEOUT_MS = 3000;
export const DB_QUERY_TIMEOUT_MS = 5000;

/**
 * A node-postgres pool on `url` (`postgres://…`) that reads 64-bit integers (COUNT, BIGINT columns:
 * times in ms, permission masks) as numbers, which they fit; `max` connections (10), each under the
 * deadlines above.
 */
export function postgresPool(url: string, max = 10): Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    // Deadlines (docs/deployment.md "Deadlines"): a PostgreSQL that is down or frozen fails a request
    // within seconds instead of holding it; a connection whose query timed out is dropped.
    connectionTimeoutMillis: DB_CONNECT_TIMEOUT_MS,
    query_timeout: DB_QUERY_TIMEOUT_MS,
    statement_timeout: DB_QUERY_TIMEOUT_MS,
    keepAlive: true,
    types: { getTypeParser: ((oid: number, format?: 'text' | 'binary') => (oid === pg.types.builtins.INT8 ? Number : pg.types.getTypeParser(oid, format))) as typeof pg.types.getTypeParser },
  });
  // An idle client that loses its connection reports here; the next query opens a new one.
  pool.on('error', () => undefined);
  return pool;
}
