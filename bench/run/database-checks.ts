/** What the runner reads from the database itself: stored events, and the AML evaluation queue's drain and lag. */
import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase } from '../../src/platform/db/database.js';
import { summarise } from '../lib/stats.js';

export async function countStored(
  database: { url: string | undefined; dataDir: string },
  transactionIds: string[],
): Promise<number> {
  const { db, close } = await openDatabase({ url: database.url, dataDir: database.dataDir });
  try {
    let stored = 0;
    for (let i = 0; i < transactionIds.length; i += 10_000) {
      const chunk = transactionIds.slice(i, i + 10_000);
      const row = await sql<{ n: number }>`select count(*)::int as n from aml_events
        where transaction_id = any(${chunk}::text[])`.execute(db);
      stored += row.rows[0]!.n;
    }
    return stored;
  } finally {
    await close();
  }
}

/** Waits until the AML evaluation queue is empty (at most three minutes); false when it did not drain. */
export async function evaluationDrained(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const deadline = Date.now() + 180_000;
    while (Date.now() < deadline) {
      const { rows } = await client.query('select count(*)::int as n from aml_evaluation_queue');
      if (rows[0].n === 0) return true;
      await new Promise((r) => setTimeout(r, 500));
    }
    return false;
  } finally {
    await client.end();
  }
}

/** The evaluation queue from outside the service: how many events wait, and the oldest one's age (s). */
export async function queueState(client: pg.Client): Promise<{ waiting: number; ageSeconds: number }> {
  const { rows } = await client.query<{ n: number; age: number }>(
    `select count(*)::int as n, coalesce(extract(epoch from clock_timestamp() - min(received_at)), 0)::float8 as age
     from aml_evaluation_queue`,
  );
  return { waiting: rows[0]!.n, ageSeconds: rows[0]!.age };
}

/**
 * How long events wait between acknowledgement and evaluation, measured from outside: every 250 ms, the age of
 * the oldest event still in the evaluation queue (evaluated events leave it), from the start of the load until the
 * queue has drained (at most the deadline after the load: an event acknowledged last must be evaluated by then).
 * Every event's wait is at most the largest age seen, give or take one sampling interval, so `max` bounds them all.
 */
export class EvaluationLag {
  private readonly ages: number[] = [];
  private readonly client: pg.Client;
  private readonly sampling: Promise<void>;
  private loadDone = false;
  drained = false;

  constructor(
    url: string,
    private readonly deadlineSeconds: number,
  ) {
    this.client = new pg.Client({ connectionString: url });
    this.sampling = this.sample();
  }

  private async sample(): Promise<void> {
    await this.client.connect();
    let deadline = Infinity;
    while (Date.now() < deadline) {
      const { waiting, ageSeconds } = await queueState(this.client);
      this.ages.push(ageSeconds);
      if (this.loadDone) {
        if (waiting === 0) {
          this.drained = true;
          break;
        }
        deadline = Math.min(deadline, Date.now() + this.deadlineSeconds * 1000);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    await this.client.end();
  }

  /** Called when the load has ended: sampling goes on until the queue is empty. */
  async finish() {
    this.loadDone = true;
    await this.sampling;
    const ages = summarise(this.ages);
    return { drained: this.drained, p99Seconds: ages.p99, maxSeconds: ages.max, samples: ages.count };
  }
}
