/**
 * The two databases the companion server runs on (docs/deployment.md "Storage"), behind one typed
 * query builder, Kysely (https://kysely.dev), whose dialects write each database's SQL:
 * - SQLite (better-sqlite3; the embedded default, one file in the data directory): one connection,
 *   so a transaction holds every other caller back until it ends (Kysely's SQLite driver), and it
 *   begins IMMEDIATE (it takes the write lock at once: instances sharing the file never deadlock on
 *   upgrading a read lock); each distinct statement is compiled once and kept;
 * - PostgreSQL (node-postgres `pg`, a pool; `DATABASE_URL=postgres://…`): 64-bit integers come back
 *   as numbers (times in ms and uint32 masks fit), each query is a named prepared statement that a
 *   connection parses and plans once, every connection and query has a deadline, and a connection
 *   whose query failed for want of the server is dropped rather than reused.
 * The repositories write their queries once for both; where the two differ (a case-insensitive
 * LIKE) they ask `contains`.
 */
import type Database from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  sql,
  type DatabaseConnection,
  type Driver,
  type Expression,
  type PostgresPool,
  type PostgresPoolClient,
  type SqlBool,
  type SqliteDatabase,
} from 'kysely';
import pg, { type Pool } from 'pg';
import type { Db, Schema, SqlDialect } from './schema';

export type { Db, SqlDialect };

/** Whether `error` is a UNIQUE (or primary key) violation, from either database. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  const code = (error as { code: unknown }).code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}

/** `%keyword%` with LIKE wildcards in the keyword escaped (escape character `\`). */
export function likePattern(keyword: string): string {
  return `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * `column` contains `keyword`, ignoring (ASCII) case, on either database: SQLite's LIKE ignores
 * case, PostgreSQL's does not and its ILIKE does; both take `ESCAPE '\'`.
 */
export function contains(dialect: SqlDialect, column: Expression<unknown>, keyword: string): Expression<SqlBool> {
  return sql<SqlBool>`${column} ${sql.raw(dialect === 'postgres' ? 'ILIKE' : 'LIKE')} ${likePattern(keyword)} ESCAPE '\\'`;
}

/** Which of a user's columns a keyword search matches (the member and user lists, docs/contract.md §5.4, §7.2): both, the name or the id. */
export type NameOrIdSearch = 'all' | 'name' | 'id';

/**
 * `keyword` in a user's name or id (or only the one `search` names), case-insensitive: `name` and
 * `id` are the two columns as the query names them.
 */
export function nameOrIdContains(dialect: SqlDialect, name: Expression<unknown>, id: Expression<unknown>, keyword: string, search: NameOrIdSearch = 'all'): Expression<SqlBool> {
  const byName = contains(dialect, name, keyword);
  const byId = contains(dialect, id, keyword);
  return search === 'name' ? byName : search === 'id' ? byId : sql<SqlBool>`(${byName} OR ${byId})`;
}

/** `query` limited to `limit` rows (negative: all of them) from row `offset`; SQLite wants a LIMIT wherever there is an OFFSET. */
export function paged<Q extends { limit(limit: number): Q; offset(offset: number): Q }>(query: Q, limit: number, offset: number): Q {
  if (limit >= 0) return query.limit(limit).offset(offset);
  return offset > 0 ? query.limit(Number.MAX_SAFE_INTEGER).offset(offset) : query;
}

/** A number column as a number (COUNT in PostgreSQL is a bigint; ./sql.ts reads those as numbers already). */
export const asNumber = (value: unknown): number => Number(value ?? 0);

/** An open database: the query builder, which database it is, and how to ask it a trivial question and close it. */
export interface Connection {
  db: Db;
  dialect: SqlDialect;
  /** Rejects when the database cannot answer (closed, unreachable, unreadable). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Kysely's SQLite driver, beginning its transactions IMMEDIATE. */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

/** Kysely's SQLite dialect with that driver. */
class CompanionSqliteDialect extends SqliteDialect {
  constructor(private readonly database: SqliteDatabase) {
    super({ database });
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver({ database: this.database });
  }
}

/** `db` as Kysely's SQLite dialect sees it, with each statement compiled once per distinct text. */
function cachingStatements(db: Database.Database): SqliteDatabase {
  const statements = new Map<string, Database.Statement>();
  return {
    close: () => db.close(),
    prepare(text: string) {
      let statement = statements.get(text);
      if (!statement) {
        statement = db.prepare(text);
        // The repositories' texts are a fixed set; this bounds a caller that builds many.
        if (statements.size < MAX_CACHED_STATEMENTS) statements.set(text, statement);
      }
      return statement as unknown as ReturnType<SqliteDatabase['prepare']>;
    },
  };
}

/** Most statements kept compiled (SQLite) or named (PostgreSQL, per connection). */
const MAX_CACHED_STATEMENTS = 1000;

/** A Kysely over the open better-sqlite3 handle `db` (closed by `close`). */
export function sqliteConnection(db: Database.Database): Connection {
  const kysely = new Kysely<Schema>({ dialect: new CompanionSqliteDialect(cachingStatements(db)) });
  return {
    db: kysely,
    dialect: 'sqlite',
    ping: async () => void db.prepare('SELECT 1').get(),
    close: () => kysely.destroy(),
  };
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

/** Whether a failed query says the connection itself is no good (the server gone, frozen, or restarting). */
function connectionLost(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^(57P0[1-3]|08...|ECONNRESET|EPIPE|ETIMEDOUT)$/.test(code)) return true;
  return error instanceof Error && /Query read timeout|Connection terminated|timeout/i.test(error.message);
}

/** The name of each query text's prepared statement: the same text, the same name, on every connection. */
const statementNames = new Map<string, string>();

/**
 * `pool` as Kysely's PostgreSQL dialect sees it: each SELECT, INSERT, UPDATE, DELETE or WITH runs as
 * a named prepared statement (parsed and planned once per connection, as SQLite's are compiled once),
 * and a connection whose query failed for want of the server is dropped when released.
 */
function namedStatements(pool: Pool): PostgresPool {
  return {
    async connect(): Promise<PostgresPoolClient> {
      const client = await pool.connect();
      let lost = false;
      const query = async (text: string, values: readonly unknown[]) => {
        let name = statementNames.get(text);
        if (!name && statementNames.size < MAX_CACHED_STATEMENTS && /^\s*(select|insert|update|delete|with)\b/i.test(text)) {
          name = `synctv_${statementNames.size + 1}`;
          statementNames.set(text, name);
        }
        try {
          return await client.query({ name, text, values: values as unknown[] });
        } catch (error) {
          if (connectionLost(error)) lost = true;
          throw error;
        }
      };
      return { query, release: () => client.release(lost) } as unknown as PostgresPoolClient;
    },
    end: () => pool.end(),
  };
}

/** A Kysely over `pool` (ended by `close`). */
export function postgresConnection(pool: Pool): Connection {
  const kysely = new Kysely<Schema>({ dialect: new PostgresDialect({ pool: namedStatements(pool) }) });
  return {
    db: kysely,
    dialect: 'postgres',
    ping: async () => void (await pool.query('SELECT 1')),
    close: () => kysely.destroy(),
  };
}
