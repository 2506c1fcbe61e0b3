import { chmodSync, cpSync, existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
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

/**
 * A result row: columns by name. The caller names the row type (derived from the generated
 * `Database` types, see table-rows.ts), and it travels through the drivers' own generics
 * (PGlite's and pg's `query<T>`), which take it on trust: nothing at run time checks a row.
 */
export type ResultRow = pg.QueryResultRow;

export interface Queryable {
  query<T extends ResultRow = Record<string, unknown>>(
    sql: string,
    params?: unknown[],
  ): Promise<QueryResult<T>>;
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
  /**
   * Background work of the lowest rank (anonymous gateway requests): on PGlite it runs only when
   * neither the hub nor other background work (the desk's requests) waits.
   */
  anonymous?: boolean;
  /**
   * The whole transaction ends within this many milliseconds of its start, as PostgreSQL 17's
   * transaction_timeout would end it (PostgreSQL 15 has none): a statement still running then is
   * cancelled (PostgreSQL: `pg_cancel_backend`; PGlite cannot interrupt its one thread, so there
   * the statement that crosses it is the last), and none starts after it. The transaction then
   * fails with 57014, as a statement_timeout ends one.
   */
  timeoutMs?: number;
}

/** The error a transaction past its deadline fails with: PostgreSQL's for statement_timeout. */
export class DeadlineError extends Error {
  readonly code = '57014';
  readonly severity = 'ERROR';
  constructor() {
    super('canceling statement due to statement timeout');
    this.name = 'DeadlineError';
  }
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** PGlite only: this open created the data folder from the template (`OpenOptions.template`). */
  readonly fromTemplate?: boolean;
  transaction<T>(fn: (tx: Queryable) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * Says that work which goes before anonymous work is on its way (a request has arrived that
   * will ask for its turn in a moment): until the returned function is called (at the latest
   * after `maxHoldMs`), no anonymous work starts. PGlite only, whose work blocks the event loop
   * the arriving request needs; PostgreSQL runs them side by side.
   */
  hold?(): () => void;
  /**
   * PGlite only: runs `fn` with the PGlite instance itself as the only work on the one
   * connection, before any other waiting work and with nothing beside it. For pg_dump
   * (pglite-tools), which talks to PGlite past its own lock and would otherwise interleave with a
   * transaction. Whatever `fn` does blocks intake meanwhile: keep it to the dump and what must be
   * read at the same instant.
   */
  exclusive?<T>(fn: (pg: PGlite) => Promise<T>): Promise<T>;
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
  /**
   * PGlite only: the template of a new data folder (server/db/template-file.mjs), a closed data
   * folder of a migrated and seeded database, or the function that finds it (asked only for a
   * new folder: a restart does not hash the template's sources). Copied when `dataDir` holds no
   * database yet, in place of initdb; a folder that has one is opened as it is.
   */
  template?: string | (() => string | undefined) | undefined;
}

export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.onConnectionError);
  return openPglite(
    options.dataDir ? path.join(options.dataDir, 'pglite') : undefined,
    options.template,
  );
}

async function openPglite(
  dataDir: string | undefined,
  template: OpenOptions['template'],
): Promise<Database> {
  // A restart never touches the template: it opens the database it has.
  const isNew = dataDir !== undefined && !existsSync(path.join(dataDir, 'PG_VERSION'));
  const templateFolder = isNew && typeof template === 'function' ? template() : template;
  const fromTemplate =
    isNew && typeof templateFolder === 'string' && copyTemplate(templateFolder, dataDir);
  const db = await PGlite.create(dataDir, {
    extensions: { pg_trgm },
    parsers: { [DATE_OID]: (value: string) => value },
  });
  const wrap = (q: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
    query: async <T extends ResultRow>(sql: string, params?: unknown[]) => {
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
    fromTemplate,
    query: (sql, params) => turns.take('first', () => direct.query(sql, params)),
    exec: (sql) => turns.take('first', () => direct.exec(sql)),
    transaction: (fn, options) =>
      turns.take(rankOf(options), () =>
        db.transaction((tx) => fn(withDeadline(wrap(tx), deadlineOf(options)))),
      ),
    hold: () => turns.hold(),
    exclusive: (fn) => turns.take('first', () => fn(db)),
    close: () => db.close(),
  };
}

/**
 * Copies the template into `dataDir`, which must not exist yet or be empty; false when it holds
 * something (a folder left by an earlier failed start), which PGlite then deals with as before.
 * Copied beside it and renamed: a start that ends halfway leaves no half database behind, and
 * what such a start left beside it is removed by the next. Plain file copies of a cleanly closed
 * folder: PGlite's own loadDataDir unpacked a tarball through its wasm file system and took
 * about twice as long (bench:startup).
 */
function copyTemplate(templateFolder: string, dataDir: string): boolean {
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) return false;
  const parent = path.dirname(dataDir);
  const name = path.basename(dataDir);
  if (existsSync(parent)) {
    for (const entry of readdirSync(parent)) {
      if (entry.startsWith(`${name}.`) && /^\.\d+\.partial$/.test(entry.slice(name.length))) {
        rmSync(path.join(parent, entry), { recursive: true, force: true });
      }
    }
  }
  const partial = `${dataDir}.${process.pid}.partial`;
  cpSync(templateFolder, partial, { recursive: true });
  // PostgreSQL's own rule for a data folder: the owner's alone.
  chmodSync(partial, 0o700);
  // Replaces an empty folder.
  renameSync(partial, dataDir);
  return true;
}

type Rank = 'first' | 'background' | 'anonymous';

function rankOf(options: TransactionOptions | undefined): Rank {
  if (!options?.background && !options?.anonymous) return 'first';
  return options.anonymous ? 'anonymous' : 'background';
}

/** When a transaction that starts now must end (`performance.now()`), if it has a timeout. */
function deadlineOf(options: TransactionOptions | undefined): number | undefined {
  return options?.timeoutMs === undefined ? undefined : performance.now() + options.timeoutMs;
}

/** No statement starts after the deadline. */
function withDeadline(tx: Queryable, deadline: number | undefined): Queryable {
  if (deadline === undefined) return tx;
  const check = () => {
    if (performance.now() >= deadline) throw new DeadlineError();
  };
  return {
    query: async (sql, params) => {
      check();
      return tx.query(sql, params);
    },
    exec: async (sql) => {
      check();
      return tx.exec(sql);
    },
  };
}

/**
 * One piece of work at a time on PGlite's one connection, in three queues: the hub's (leads,
 * questionnaires, setup) first, then the gateway's background work of signed-in staff (and the
 * mail job), then anonymous gateway work, each only when nothing of a higher rank waits. Each
 * gateway statement's work is bounded (statement builder, row budget, deadline), so a lead or a
 * desk read waits at most for the one that is running.
 *
 * PGlite's work blocks the event loop, and a request needs a few turns of the loop (accept, read,
 * token check) before it asks for its own turn here. So background work never starts at once
 * but after a turn of the loop, and anonymous work only after a pause behind the last anonymous
 * piece (half as long as it held the loop, at most `anonymousPauseMs`): in it, a lead or a desk
 * request that came in meanwhile gets far enough to queue by its rank, however many anonymous
 * requests wait. And while such a request is on its way (`hold`, from its arrival), no anonymous
 * work starts at all: it waits at most for the one piece that is running.
 */
const anonymousPauseMs = 250;
/** The longest one `hold` keeps anonymous work waiting. */
export const maxHoldMs = 2_000;

function createTurns() {
  const waiting: Record<Rank, Array<() => void>> = { first: [], background: [], anonymous: [] };
  let busy = false;
  let timer: NodeJS.Timeout | undefined;
  let immediate: NodeJS.Immediate | undefined;
  /** No anonymous work starts before this time (`performance.now()`), nor while held. */
  let anonymousFrom = 0;
  let holds = 0;
  const pump = () => {
    immediate = undefined;
    if (busy) return;
    let run = waiting.first.shift() ?? waiting.background.shift();
    if (!run && waiting.anonymous.length > 0 && holds === 0) {
      const wait = anonymousFrom - performance.now();
      if (wait >= 1) {
        timer ??= setTimeout(() => {
          timer = undefined;
          pump();
        }, wait);
        return;
      }
      run = waiting.anonymous.shift();
    }
    if (!run) return;
    busy = true;
    run();
  };
  // At least one turn of the event loop first: the hub's next statement of the same lead (its
  // transaction follows a lookup) is queued by then and goes before the background work.
  const schedule = () => {
    immediate ??= setImmediate(pump);
  };
  const next = () => {
    busy = false;
    const first = waiting.first.shift();
    if (first) {
      busy = true;
      first();
      return;
    }
    if (waiting.background.length > 0 || waiting.anonymous.length > 0) schedule();
  };
  return {
    hold(): () => void {
      holds += 1;
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        clearTimeout(limit);
        holds -= 1;
        if (holds === 0 && !busy && waiting.anonymous.length > 0) schedule();
      };
      const limit = setTimeout(release, maxHoldMs);
      limit.unref();
      return release;
    },
    take<T>(rank: Rank, work: () => Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const run = () => {
          const started = performance.now();
          work()
            .then(resolve, reject)
            .finally(() => {
              if (rank === 'anonymous') {
                const ended = performance.now();
                anonymousFrom = ended + Math.min(anonymousPauseMs, (ended - started) / 2);
              }
              next();
            });
        };
        if (rank === 'first' && !busy) {
          busy = true;
          run();
          return;
        }
        waiting[rank].push(run);
        if (!busy) schedule();
      });
    },
  };
}

/** Connections to PostgreSQL per server process. */
export const postgresPoolSize = 10;
/**
 * Of those, the gateway's work (the desk's reads, exports, anonymous calls) holds at most this
 * many at once: the rest stay free for the hub, so a visitor's lead never waits for a connection
 * while staff run heavy reads. The PostgreSQL counterpart of PGlite's queues by rank.
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

function isCancel(error: unknown): boolean {
  return error instanceof DeadlineError || (error as { code?: unknown } | null)?.code === '57014';
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
    query: async <T extends ResultRow>(sql: string, params?: unknown[]) => {
      const result = await client.query<T>(sql, params);
      return { rows: result.rows, rowCount: result.rowCount ?? result.rows.length };
    },
    // Without parameters pg uses the simple protocol, which takes several statements at once.
    exec: async (sql) => {
      await client.query(sql);
    },
  });
  // Cancels go over a connection of their own: the pool may be busy with the very work to end.
  const cancelPool = new pg.Pool({ connectionString, max: 1, idleTimeoutMillis: 10_000 });
  cancelPool.on('error', (error) => onConnectionError?.(error));
  return {
    kind: 'postgres',
    ...wrap(pool),
    transaction: async (fn, options) => {
      // Gateway work waits for one of its slots first; the hub's takes the pool directly.
      const background = Boolean(options?.background || options?.anonymous);
      const releaseSlot = background ? await backgroundSlots.take() : undefined;
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        releaseSlot?.();
        throw error;
      }
      const deadline = deadlineOf(options);
      let timer: NodeJS.Timeout | undefined;
      let cancelled: Promise<unknown> | undefined;
      if (deadline !== undefined) {
        // The backend's process id, as PostgreSQL told it at connect.
        const pid = (client as unknown as { processID: number | null }).processID;
        timer = setTimeout(
          () => {
            if (pid !== null)
              cancelled = cancelPool.query('select pg_cancel_backend($1)', [pid]).catch(() => {});
          },
          Math.max(0, deadline - performance.now()),
        );
      }
      const tx = withDeadline(wrap(client), deadline);
      // A connection whose rollback failed (a cancel landing on it) is closed, not reused.
      let broken = false;
      try {
        await tx.query('begin');
        const result = await fn(tx);
        await tx.query('commit');
        return result;
      } catch (error) {
        await client.query('rollback').catch(() => (broken = true));
        // A statement cancelled at the deadline reads "due to user request" (pg_cancel_backend).
        if (deadline !== undefined && performance.now() >= deadline && isCancel(error)) {
          throw new DeadlineError();
        }
        throw error;
      } finally {
        clearTimeout(timer);
        // A cancel sent must have arrived before the connection serves anyone else (PostgreSQL
        // ignores one that reaches an idle connection).
        if (cancelled) await cancelled;
        client.release(broken);
        releaseSlot?.();
      }
    },
    close: async () => {
      const closed = open === 0 ? Promise.resolve() : new Promise<void>((r) => (allClosed = r));
      await pool.end();
      await cancelPool.end();
      await closed;
    },
  };
}
