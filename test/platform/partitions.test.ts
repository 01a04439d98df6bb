import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import {
  PARTITIONED_TABLES,
  PARTITIONS_JOB,
  dropsAt,
  readPartitions,
} from '../../src/platform/partitions.js';
import { useSuite } from '../helpers/suite.js';
import { TestService } from '../helpers/test-service.js';
import { DAY } from '../helpers/units.js';

const spans = (partitions: { from: Date | null; to: Date }[]) =>
  partitions.map((p) => `${p.from?.toISOString().slice(0, 10) ?? 'min'}..${p.to.toISOString().slice(0, 10)}`);

/** The metric when all is well: two partitions ahead of the clock for every partitioned table. */
const ALL_TWO_AHEAD = Object.fromEntries(PARTITIONED_TABLES.map(({ table }) => [table, 2]));

/** The service's time partitions on the test clock (PGlite, or PostgreSQL with DATABASE_URL). */
describe('time partitions', () => {
  const suite = useSuite(() => TestService.start(), { perTest: true });

  const partitionsOf = async (table: string) => (await readPartitions(suite.current.db)).get(table)!;
  const ahead = async () => {
    const text = (await suite.current.backoffice('GET', '/metrics')).body;
    return Object.fromEntries(
      [...text.matchAll(/^compliance_partitions_ahead\{table="(\w+)"\} (\d+)$/gm)].map((m) => [
        m[1],
        Number(m[2]),
      ]),
    );
  };

  it('has, from the start, the partition of the clock and two ahead for every table, and the daily job', async () => {
    const t = suite.current;
    const now = t.platform.clock.now();
    for (const { table } of PARTITIONED_TABLES) {
      const partitions = await partitionsOf(table);
      const current = partitions.filter((p) => (p.from ?? new Date(0)) <= now && now < p.to);
      expect(current, table).toHaveLength(1);
      expect(
        partitions.filter((p) => p.from && p.from > now),
        table,
      ).toHaveLength(2);
    }
    expect(await ahead()).toEqual(ALL_TWO_AHEAD);
    const job = await t.db
      .selectFrom('scheduled_jobs')
      .selectAll()
      .where('kind', '=', PARTITIONS_JOB)
      .executeTakeFirstOrThrow();
    expect(job.subject_id).toBe('all');
    expect(job.due_at.getTime()).toBeLessThanOrEqual(now.getTime() + DAY * 1000);
  });

  it('creates the partitions ahead as the clock advances, and writes land in them', async () => {
    const t = suite.current;
    await t.advance(45 * DAY);
    const now = t.platform.clock.now();
    const geo = await partitionsOf('geo_audit_log');
    expect(spans(geo.filter((p) => p.from && p.from > now))).toEqual([
      '2030-03-01..2030-04-01',
      '2030-04-01..2030-05-01',
    ]);
    expect(await ahead()).toEqual(ALL_TWO_AHEAD);

    const tenant = await t.createTenant();
    expect((await t.api(tenant.apiKey, 'POST', '/v1/geo/check', { ip_address: '8.8.8.8' })).statusCode).toBe(
      200,
    );
    const stored = await sql<{ partition: string }>`
      select tableoid::regclass::text as partition from geo_audit_log where tenant_id = ${tenant.tenantId}`.execute(
      t.db,
    );
    expect(stored.rows).toEqual([{ partition: 'partitions.geo_audit_log_20300201_20300301' }]);
  });

  it('drops a partition whole exactly when its whole span is past retention, not a second before', async () => {
    const t = suite.current;
    const spec = PARTITIONED_TABLES.find((p) => p.table === 'webhook_attempts')!;
    const now = t.platform.clock.now();
    const current = (await partitionsOf('webhook_attempts')).find(
      (p) => p.from && p.from <= now && now < p.to,
    )!;
    const dropAt = dropsAt(spec, current);
    expect(dropAt.getTime() - current.to.getTime()).toBe(90 * DAY * 1000);

    await t.advance((dropAt.getTime() - now.getTime()) / 1000 - 1);
    expect((await partitionsOf('webhook_attempts')).map((p) => p.name)).toContain(current.name);
    await t.advance(1);
    expect((await partitionsOf('webhook_attempts')).map((p) => p.name)).not.toContain(current.name);
    // The others keep theirs: 6 and 7 years are far off.
    expect((await partitionsOf('audit_log')).some((p) => p.from && p.from <= now && now < p.to)).toBe(true);
  });

  it('reports a table with no partition ahead, and puts them back on the next run', async () => {
    const t = suite.current;
    const now = t.platform.clock.now();
    for (const p of await partitionsOf('audit_log')) {
      if (p.from && p.from > now) await sql`drop table ${sql.table(`partitions.${p.name}`)}`.execute(t.db);
    }
    expect(await ahead()).toMatchObject({ audit_log: 0, geo_audit_log: 2 });
    await t.advance(DAY);
    expect(await ahead()).toMatchObject({ audit_log: 2 });
  });
});
