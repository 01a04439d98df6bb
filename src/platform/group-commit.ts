import type { Config } from '../config.js';
import type { Metrics } from './metrics.js';

/**
 * Group commit for writes that every request makes: rows submitted while a write is in flight wait for it and
 * then go together in the next one, so one statement (one commit, one WAL flush) serves many requests. Each
 * caller is answered only after the write holding its row has committed: nothing is acknowledged that is not
 * durable. At low load a row is written at once, alone, so no latency is added. The same grouping serves a read
 * that many requests make at once (the AML screen's history read): one statement for all the requests waiting.
 */
export interface GroupCommitOptions<Row> {
  /** Rows per statement at most. */
  maxBatch?: number;
  /** Writes in flight at once (each holds one pooled connection). */
  maxInFlight?: number;
  /**
   * Rows with the same key never share a statement: a later one waits for the next (a multi-row upsert may
   * touch each row only once, and each check must see the one before it).
   */
  keyOf?: (row: Row) => string;
}

interface Waiting<Row, Result> {
  row: Row;
  resolve: (result: Result) => void;
  reject: (error: unknown) => void;
}

export class GroupCommit<Row, Result> {
  private readonly queue: Array<Waiting<Row, Result>> = [];
  private inFlight = 0;
  private readonly maxBatch: number;
  private readonly maxInFlight: number;
  private readonly keyOf: ((row: Row) => string) | undefined;
  /** Told each statement's row count (compliance_group_commit_batch_size). */
  onBatch: ((size: number) => void) | undefined;

  /**
   * `write` stores all rows in one statement and returns one result per row, in order. When it fails, each row
   * is written again on its own, so that one bad row fails only its own request.
   */
  constructor(
    private readonly write: (rows: Row[]) => Promise<Result[]>,
    options: GroupCommitOptions<Row> = {},
  ) {
    this.maxBatch = options.maxBatch ?? 500;
    this.maxInFlight = options.maxInFlight ?? 2;
    this.keyOf = options.keyOf;
  }

  submit(row: Row): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.queue.push({ row, resolve, reject });
      this.drain();
    });
  }

  private drain(): void {
    while (this.inFlight < this.maxInFlight && this.queue.length > 0) {
      const batch = this.takeBatch();
      this.inFlight++;
      void this.flush(batch).finally(() => {
        this.inFlight--;
        this.drain();
      });
    }
  }

  /** The oldest waiting rows, up to maxBatch, at most one per key; the rest keep their order in the queue. */
  private takeBatch(): Array<Waiting<Row, Result>> {
    const keyOf = this.keyOf;
    if (!keyOf) return this.queue.splice(0, this.maxBatch);
    const batch: Array<Waiting<Row, Result>> = [];
    const keys = new Set<string>();
    const rest = this.queue.filter((waiting) => {
      const key = keyOf(waiting.row);
      if (batch.length === this.maxBatch || keys.has(key)) return true;
      keys.add(key);
      batch.push(waiting);
      return false;
    });
    this.queue.splice(0, this.queue.length, ...rest);
    return batch;
  }

  private async flush(batch: Array<Waiting<Row, Result>>): Promise<void> {
    this.onBatch?.(batch.length);
    try {
      const results = await this.write(batch.map((w) => w.row));
      batch.forEach((waiting, i) => waiting.resolve(results[i]!));
    } catch (error) {
      if (batch.length === 1) return batch[0]!.reject(error);
      await Promise.all(
        batch.map((waiting) =>
          this.write([waiting.row]).then(([result]) => waiting.resolve(result!), waiting.reject),
        ),
      );
    }
  }
}

/**
 * The group commits of one service (one database), each built once by the composition root and held on the
 * platform, so a request reaches its own by a property. Each area adds its entries beside the verb that submits to
 * them (`declare module '…/platform/group-commit.js'`), so the platform names no area.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the areas' declarations
export interface GroupCommits {}

/** Rows per statement; a group commit takes at most 500. */
const BATCH_SIZE_BUCKETS = [1, 2, 5, 10, 20, 50, 100, 200, 500];

/** compliance_group_commit_batch_size: each group commit's statements by their row count, labelled with its name. */
export function measureGroupCommits(groupCommits: GroupCommits, metrics: Metrics): void {
  const sizes = metrics.histogram(
    'compliance_group_commit_batch_size',
    'Rows (requests) per statement of a group commit, by group',
    ['group'],
    BATCH_SIZE_BUCKETS,
  );
  for (const [group, commit] of Object.entries(groupCommits) as Array<
    [string, GroupCommit<unknown, unknown>]
  >) {
    const labels = { group };
    commit.onBatch = (size) => sizes.observe(labels, size);
  }
}

/**
 * A group commit on the service's database. Embedded PGlite is one connection that runs one statement at a time:
 * there, a single write in flight lets the rows arriving meanwhile gather into the next statement, where a second
 * write would only wait for the connection holding a small batch.
 */
export function databaseGroupCommit<Row, Result>(
  config: Pick<Config, 'databaseUrl'>,
  write: (rows: Row[]) => Promise<Result[]>,
  options: Pick<GroupCommitOptions<Row>, 'keyOf'> = {},
): GroupCommit<Row, Result> {
  return new GroupCommit(write, { ...options, maxInFlight: config.databaseUrl ? 2 : 1 });
}
