import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import pg from 'pg';
import { PGliteDialect, type ConnectionsInUse } from './pglite-dialect.js';
import { MAX_PREPARED_PER_CONNECTION, MAX_PREPARED_TEXT, statementName } from './statement-names.js';
import type { DB } from './schema.js';

export type Executor = Kysely<DB> | Transaction<DB>;

export interface Database {
  db: Kysely<DB>;
  kind: 'pglite' | 'postgres';
  /** This process's connections now: checked out, at most, and requests waiting for one (the pool gauges). */
  connections(): ConnectionsInUse;
  close(): Promise<void>;
}

// Both drivers return the same JavaScript types: bigint counts and sums as numbers (cents stay far below
// 2^53), numeric as numbers, and SQL dates as their 'YYYY-MM-DD' text rather than a local-midnight Date.
const INT8 = 20;
const NUMERIC = 1700;
const DATE = 1082;
const parsers: Record<number, (value: string) => unknown> = {
  [INT8]: Number,
  [NUMERIC]: Number,
  [DATE]: (value) => value,
};

/**
 * A pooled client that prepares each parameterised statement once per connection (a named statement, its name
 * the hash of its text), so PostgreSQL plans it once instead of on every call: planning is most of the cost of
 * the service's short hot-path queries.
 */
class PreparingClient extends pg.Client {
  private readonly prepared = new Set<string>();

  override query(...args: unknown[]): never {
    const [text, values] = args;
    if (
      typeof text === 'string' &&
      Array.isArray(values) &&
      values.length > 0 &&
      text.length <= MAX_PREPARED_TEXT &&
      typeof args[2] !== 'function'
    ) {
      const name = statementName(text);
      if (this.prepared.has(name) || this.prepared.size < MAX_PREPARED_PER_CONNECTION) {
        this.prepared.add(name);
        return (super.query as unknown as (config: pg.QueryConfig) => never)({ name, text, values });
      }
    }
    return (super.query as unknown as (...a: unknown[]) => never)(...args);
  }
}

const EMBEDDED_SHARED_BUFFERS = '32MB';
/** Connections of an API process's pool (a worker process asks for fewer). */
const DEFAULT_POOL_SIZE = 10;

export interface DatabaseOptions {
  /** postgres://… for a server; otherwise PGlite. */
  url?: string | undefined;
  /** PGlite data directory; omitted means in memory (tests). */
  dataDir?: string | undefined;
  poolSize?: number;
  /** Told of an idle pooled connection that the server dropped; the pool replaces it on the next query. */
  onIdleError?: (error: Error) => void;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url) {
    const max = options.poolSize ?? DEFAULT_POOL_SIZE;
    const pool = new pg.Pool({
      Client: PreparingClient,
      connectionString: options.url,
      // Every statement of the service is short, but a grouped statement's generic plan can be estimated above
      // jit_above_cost: JIT then compiled it on every run (120 ms for a screen's grouped history read).
      options: '-c jit=off',
      max,
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
          parsers[oid] ?? pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
      },
    });
    // Without a listener, a server restart or a terminated backend would crash the process from an idle client.
    pool.on('error', (error) => options.onIdleError?.(error));
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    return {
      db,
      kind: 'postgres',
      connections: () => ({ inUse: pool.totalCount - pool.idleCount, max, waiting: pool.waitingCount }),
      close: () => db.destroy(),
    };
  }

  let dataDir: string | undefined;
  let unlock = () => {};
  if (options.dataDir) {
    dataDir = path.join(options.dataDir, 'pglite');
    fs.mkdirSync(dataDir, { recursive: true });
    unlock = lockDataDir(options.dataDir);
  }
  try {
    if (dataDir && !fs.existsSync(path.join(dataDir, 'PG_VERSION'))) await createDataDir(dataDir);
    const pglite = await PGlite.create({
      dataDir,
      parsers,
      // PGlite's shared buffers live in the API process's own memory. The data files stay in the operating
      // system's page cache, so a smaller pool costs a system call on a miss, not a disk read.
      startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${EMBEDDED_SHARED_BUFFERS}`],
    });
    const dialect = new PGliteDialect(pglite);
    const db = new Kysely<DB>({ dialect });
    return {
      db,
      kind: 'pglite',
      connections: () => dialect.connections(),
      close: async () => {
        await db.destroy();
        unlock();
      },
    };
  } catch (error) {
    unlock();
    throw error;
  }
}

/**
 * Creates a PGlite data directory in a short-lived child process. initdb runs in a WebAssembly instance of its
 * own that takes several hundred MB; made in the service's process, that memory stayed with it long after.
 */
async function createDataDir(dataDir: string): Promise<void> {
  const pglite = pathToFileURL(createRequire(import.meta.url).resolve('@electric-sql/pglite')).href;
  const script = `const { PGlite } = await import(${JSON.stringify(pglite)});
    await (await PGlite.create({ dataDir: ${JSON.stringify(dataDir)} })).close();`;
  await promisify(execFile)(process.execPath, ['--input-type=module', '--eval', script]);
}

/**
 * Embedded PGlite is one process's database: a second process on the same directory would corrupt it. A lock
 * file with the owner's pid refuses the second start; a lock left by a dead process is taken over.
 */
function lockDataDir(dir: string): () => void {
  const lockPath = path.join(dir, 'pglite.lock');
  for (;;) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
      return () => fs.rmSync(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(fs.readFileSync(lockPath, 'utf8'));
      if (owner && isAlive(owner)) {
        throw new Error(
          `DATA_DIR ${dir} is in use by process ${owner}; embedded PGlite serves one process (use DATABASE_URL for several)`,
        );
      }
      fs.rmSync(lockPath, { force: true });
    }
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
