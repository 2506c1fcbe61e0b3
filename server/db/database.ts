import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';

// A calendar date (birthdate) stays the string 'YYYY-MM-DD': as a JS Date it would be shifted
// by the server's time zone.
const DATE_OID = 1082;

export interface QueryResult<T> {
  rows: T[];
  rowCount: number;
}

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<T>>;
  /** Runs a script of several statements (migrations, seed); no parameters. */
  exec(sql: string): Promise<void>;
}

/**
 * The small interface the hub and the gateway share. PGlite is one connection, so its
 * transactions run one after another; nothing may rely on session state outside `transaction`.
 */
export interface TransactionOptions {
  /**
   * Work that may wait (the gateway's requests, the lead-mail job): on PGlite's one connection it
   * runs only when no other work is waiting, and on PostgreSQL it holds at most
   * `postgresBackgroundConnections` of the pool, so a visitor's lead never queues behind staff
   * or anonymous reads.
   */
  background?: boolean;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  transaction<T>(fn: (tx: Queryable) => Promise<T>, options?: TransactionOptions): Promise<T>;
  close(): Promise<void>;
}

export interface OpenOptions {
  databaseUrl?: string | undefined;
  /** PGlite data directory; undefined keeps the database in memory (tests). */
  dataDir?: string | undefined;
  /**
   * Told when PostgreSQL drops an idle pooled connection (server restart, network). The pool
   * replaces the connection; without a listener Node would end the process on this event.
   */
  onConnectionError?: ((error: Error) => void) | undefined;
}

export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.onConnectionError);
  return openPglite(options.dataDir ? path.join(options.dataDir, 'pglite') : undefined);
}

async function openPglite(dataDir: string | undefined): Promise<Database> {
  const db = await PGlite.create(dataDir, {
    extensions: { pg_trgm },
    parsers: { [DATE_OID]: (value: string) => value },
  });
  const wrap = (q: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
    query: async <T>(sql: string, params?: unknown[]) => {
      const result = await q.query<T>(sql, params);
      // PGlite counts only written rows; pg, like PostgreSQL, counts what a SELECT returned too.
      return {
        rows: result.rows,
        rowCount: Math.max(result.affectedRows ?? 0, result.rows.length),
      };
    },
    exec: async (sql) => {
      await q.exec(sql);
    },
  });
  const turns = createTurns();
  const direct = wrap(db);
  return {
    kind: 'pglite',
    query: (sql, params) => turns.take(false, () => direct.query(sql, params)),
    exec: (sql) => turns.take(false, () => direct.exec(sql)),
    transaction: (fn, options) =>
      turns.take(options?.background ?? false, () => db.transaction((tx) => fn(wrap(tx)))),
    close: () => db.close(),
  };
}

/**
 * One piece of work at a time on PGlite's one connection, in two queues: the hub's (leads,
 * questionnaires, setup) first, the gateway's background work only when nothing else waits.
 * Each gateway statement's work is bounded (statement builder, row budget), so a lead waits at
 * most for the one that is running.
 */
function createTurns() {
  const waiting: { first: Array<() => void>; background: Array<() => void> } = {
    first: [],
    background: [],
  };
  let busy = false;
  const next = () => {
    const first = waiting.first.shift();
    if (first) return first();
    if (waiting.background.length === 0) {
      busy = false;
      return;
    }
    // One turn of the event loop first: the hub's next statement of the same lead (its
    // transaction follows a lookup) is queued by then and goes before the background work.
    setImmediate(() => (waiting.first.shift() ?? waiting.background.shift())!());
  };
  return {
    take<T>(background: boolean, work: () => Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const run = () => {
          work().then(resolve, reject).finally(next);
        };
        if (!busy) {
          busy = true;
          run();
        } else (background ? waiting.background : waiting.first).push(run);
      });
    },
  };
}

/** Connections to PostgreSQL per server process. */
export const postgresPoolSize = 10;
/**
 * Of those, the gateway's work (the desk's reads, exports, anonymous calls) holds at most this
 * many at once: the rest stay free for the hub, so a visitor's lead never waits for a connection
 * while staff run heavy reads. The PostgreSQL counterpart of PGlite's two queues.
 */
export const postgresBackgroundConnections = postgresPoolSize - 3;

/** At most `size` holders at once; the others wait in arrival order. */
export function createSlots(size: number) {
  let free = size;
  const waiting: Array<() => void> = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else free += 1;
  };
  return {
    /** Resolves with the function that gives the slot back, once one is free. */
    take(): Promise<() => void> {
      if (free > 0) {
        free -= 1;
        return Promise.resolve(once(release));
      }
      return new Promise((resolve) => waiting.push(() => resolve(once(release))));
    },
  };
}

function once(fn: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
}

async function openPostgres(
  connectionString: string,
  onConnectionError: ((error: Error) => void) | undefined,
): Promise<Database> {
  const pool = new pg.Pool({
    connectionString,
    max: postgresPoolSize,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === DATE_OID
          ? (value: string) => value
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  pool.on('error', (error) => onConnectionError?.(error));
  const backgroundSlots = createSlots(postgresBackgroundConnections);
  // pool.end() resolves before its connections have closed; count them out so that close()
  // means closed (a server stopped right after would otherwise cut live connections).
  let open = 0;
  let allClosed: (() => void) | undefined;
  pool.on('connect', () => (open += 1));
  pool.on('remove', () => {
    open -= 1;
    if (open === 0) allClosed?.();
  });
  // Fail at start, not at the first request, when the server is unreachable.
  await pool.query('select 1');
  const wrap = (client: pg.Pool | pg.PoolClient): Queryable => ({
    query: async <T>(sql: string, params?: unknown[]) => {
      const result = await client.query(sql, params);
      return { rows: result.rows as T[], rowCount: result.rowCount ?? result.rows.length };
    },
    // Without parameters pg uses the simple protocol, which takes several statements at once.
    exec: async (sql) => {
      await client.query(sql);
    },
  });
  return {
    kind: 'postgres',
    ...wrap(pool),
    transaction: async (fn, options) => {
      // Gateway work waits for one of its slots first; the hub's takes the pool directly.
      const releaseSlot = options?.background ? await backgroundSlots.take() : undefined;
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        releaseSlot?.();
        throw error;
      }
      try {
        await client.query('begin');
        const result = await fn(wrap(client));
        await client.query('commit');
        return result;
      } catch (error) {
        await client.query('rollback').catch(() => undefined);
        throw error;
      } finally {
        client.release();
        releaseSlot?.();
      }
    },
    close: async () => {
      const closed = open === 0 ? Promise.resolve() : new Promise<void>((r) => (allClosed = r));
      await pool.end();
      await closed;
    },
  };
}
