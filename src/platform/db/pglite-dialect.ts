import { parse, protocol, type PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';
import { MAX_PREPARED_PER_CONNECTION, MAX_PREPARED_TEXT, statementName } from './statement-names.js';

/**
 * Kysely dialect for embedded PGlite. PGlite is one connection, so the driver hands it out under a mutex:
 * a transaction owns it from BEGIN to COMMIT and no other request's query can slip in between.
 * (Kysely's bundled PGlite driver shares one connection object across concurrent transactions.)
 */
export class PGliteDialect implements Dialect {
  #driver: PGliteDriver | undefined;
  constructor(private readonly pglite: PGlite) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return (this.#driver = new PGliteDriver(this.pglite));
  }
  /** The one connection: whether a query or transaction holds it, and how many wait for it. */
  connections(): ConnectionsInUse {
    return { inUse: this.#driver?.held ? 1 : 0, max: 1, waiting: this.#driver?.waiting ?? 0 };
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}

/** A database's connections as the pool gauges read them. */
export interface ConnectionsInUse {
  inUse: number;
  max: number;
  waiting: number;
}

class PGliteDriver implements Driver {
  readonly #connection: PGliteConnection;
  #queue: Promise<void> = Promise.resolve();
  #release: (() => void) | undefined;
  /** Acquisitions waiting for the connection. */
  waiting = 0;

  constructor(private readonly pglite: PGlite) {
    this.#connection = new PGliteConnection(pglite);
  }

  get held(): boolean {
    return this.#release !== undefined;
  }

  async init(): Promise<void> {
    await this.pglite.waitReady;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const previous = this.#queue;
    let release!: () => void;
    this.#queue = new Promise<void>((resolve) => (release = resolve));
    this.waiting++;
    try {
      await previous;
    } finally {
      this.waiting--;
    }
    this.#release = release;
    return this.#connection;
  }

  async releaseConnection(): Promise<void> {
    const release = this.#release;
    this.#release = undefined;
    release?.();
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin'));
  }
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }
  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${name}`));
  }
  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to savepoint ${name}`));
  }
  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release savepoint ${name}`));
  }

  async destroy(): Promise<void> {
    if (!this.pglite.closed) await this.pglite.close();
  }
}

const { serialize } = protocol;

/**
 * The one connection. A parameterised statement is prepared once, by name (the hash of its text, as on a server's
 * pooled connection), and then only bound and executed: PostgreSQL keeps its plan. PGlite's own query() parses and
 * plans every call, which for the AML rule reads cost six times their execution.
 */
class PGliteConnection implements DatabaseConnection {
  /** Prepared statements by name, with the types of their parameters. */
  readonly #prepared = new Map<string, number[]>();

  constructor(private readonly pglite: PGlite) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const { sql, parameters } = compiled;
    const name = parameters.length > 0 && sql.length <= MAX_PREPARED_TEXT ? statementName(sql) : undefined;
    const prepare = name && (this.#prepared.size < MAX_PREPARED_PER_CONNECTION || this.#prepared.has(name));
    const result = prepare
      ? await this.#executePrepared(name, sql, parameters)
      : await this.pglite.query<R>(sql, [...parameters], { rowMode: 'object' });
    return {
      rows: result.rows as R[],
      numAffectedRows: result.affectedRows === undefined ? undefined : BigInt(result.affectedRows),
    };
  }

  /** Parse (first call only), then bind, describe, execute and sync, as PGlite's query() does unnamed. */
  #executePrepared(name: string, text: string, parameters: readonly unknown[]) {
    const { pglite } = this;
    return pglite.runExclusive(async () => {
      const messages = [];
      try {
        let types = this.#prepared.get(name);
        if (!types) {
          await pglite.execProtocol(serialize.parse({ name, text, types: [] }), { syncToFs: false });
          const described = await pglite.execProtocol(serialize.describe({ type: 'S', name }), {
            syncToFs: false,
          });
          types = parse.parseDescribeStatementResults(described.messages);
          this.#prepared.set(name, types);
        }
        const values = parameters.map((value, i) => {
          if (value === null || value === undefined) return null;
          const serializer = pglite.serializers[types![i]!];
          return serializer ? serializer(value) : String(value);
        });
        const run = Buffer.concat([
          serialize.bind({ statement: name, values }),
          serialize.describe({ type: 'P' }),
          serialize.execute({}),
        ]);
        messages.push(...(await pglite.execProtocol(run, { syncToFs: false })).messages);
      } finally {
        messages.push(...(await pglite.execProtocol(serialize.sync(), { syncToFs: true })).messages);
      }
      return parse.parseResults(messages, pglite.parsers, { rowMode: 'object' })[0]!;
    });
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite does not stream query results');
  }
}
