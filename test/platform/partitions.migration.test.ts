import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Migrator, sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { seedVolume, type SeedScale } from '../../bench/seed.js';
import { executeStatements } from '../../migrations/execute-statements.js';
import { migrations } from '../../migrations/index.js';
import { openDatabase } from '../../src/platform/db/database.js';
import type { DB } from '../../src/platform/db/schema.js';
import { openUnmigratedDatabase } from '../helpers/migration-database.js';
import { useSuite } from '../helpers/suite.js';
import { createTestDatabase } from '../helpers/test-database.js';
import { temporaryDirectory } from '../helpers/temporary-directory.js';

/** The benchmark's seed, smaller: the same loader and row shapes, in the time a test may take. */
const SCALE: SeedScale = {
  tenants: 3,
  usersPerTenant: 300,
  deposits: 3_000,
  exclusions: 3_000,
  amlEvents: 20_000,
};
const ROWS = 20_000;
const BEFORE = '2026-12-03T0034_player_closures';
const TABLES = ['aml_events', 'geo_audit_log', 'events', 'webhook_attempts', 'audit_log'] as const;

const migrateTo = async (db: Kysely<DB>, name?: string) => {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    allowUnorderedMigrations: true,
  });
  const { error } = name ? await migrator.migrateTo(name) : await migrator.migrateToLatest();
  if (error) throw error;
};

/** Each table's row count and a digest of every row as PostgreSQL prints it, in a fixed order. */
const digests = async (db: Kysely<DB>) =>
  Object.fromEntries(
    await Promise.all(
      TABLES.map(async (table) => {
        const { rows } = await sql<{ count: number; digest: string }>`
          select count(*)::int as count, md5(coalesce(string_agg(r::text, E'\n' order by r::text), '')) as digest
          from ${sql.table(table)} r`.execute(db);
        return [table, rows[0]!] as const;
      }),
    ),
  );

/** The partitioning migration on a database holding the benchmark's seed (PGlite, or PostgreSQL with DATABASE_URL). */
describe('migrations 0036 and 0038 (time partitions, the AML events among them) on a seeded database', () => {
  const suite = useSuite(async (own) => {
    const dataDir = own(temporaryDirectory('compliance-partitions-'));
    const created = await createTestDatabase();
    own({ close: () => created.drop() });
    const where = { url: created.url, dataDir: dataDir.path };
    const tenantIds = ['ten_seed_a', 'ten_seed_b', 'ten_seed_c'];

    let database = await openDatabase(where);
    await migrateTo(database.db, BEFORE);
    await sql`insert into tenants (tenant_id, name, environment, signing_secret, created_at, updated_at)
      select t, t, 'sandbox', 's', now(), now() from unnest(${tenantIds}::text[]) t`.execute(database.db);
    await database.close();
    process.env.COMPLIANCE_SECRETS_KEY ??= randomBytes(32).toString('base64');
    await seedVolume(where, tenantIds, SCALE, () => {});

    // The tables the seed leaves empty get rows of the shapes the service writes, over the last 90 days.
    database = await openDatabase(where);
    const db = database.db;
    const spread = sql`now() - make_interval(secs => 60 + (g * 7919) % (90 * 86400))`;
    await sql`insert into geo_audit_log (tenant_id, checked_at, request_id, ip_address, user_agent, context, resolver,
        country_code, region, status, cache)
      select ${sql.lit(tenantIds[0])}, ${spread}, 'req_' || g, '10.0.' || (g % 250) || '.' || (g % 200), 'UA', 'login',
        'sandbox', 'US', 'NV', 'status_allowed', case when g % 3 = 0 then 'MISS' else 'HIT' end
      from generate_series(1, ${ROWS}) g`.execute(db);
    await sql`insert into events (event_id, tenant_id, event, payload, created_at, delivery_status, attempt_count,
        delivered_at)
      select 'evt_seed_' || g, ${sql.lit(tenantIds[1])}, 'limit.changed',
        '{"data":{"user_id":"user_' || (g % 300) || '"}}', ${spread}, 'delivered', 1, ${spread}
      from generate_series(1, ${ROWS}) g`.execute(db);
    await sql`insert into webhook_attempts (event_id, tenant_id, attempt_number, attempted_at, url, status_code,
        latency_ms, outcome)
      select 'evt_seed_' || g, ${sql.lit(tenantIds[1])}, 1, ${spread}, 'https://hooks.example/h', 200, 20, 'delivered'
      from generate_series(1, ${ROWS}) g`.execute(db);
    await sql`insert into audit_log (tenant_id, occurred_at, actor, action, request_id, details)
      select ${sql.lit(tenantIds[2])}, ${spread}, 'key:svc', 'limit.set', 'req_' || g,
        jsonb_build_object('user_id', 'user_' || (g % 300))
      from generate_series(1, ${ROWS}) g`.execute(db);

    const before = await digests(db);
    const started = performance.now();
    await migrateTo(db);
    const migrationMs = performance.now() - started;
    const after = await digests(db);
    return { db: own(database).db, before, after, migrationMs };
  });

  it("keeps every row of the five tables, as it was, and every AML event's key", async () => {
    const { before, after } = suite.current;
    expect(before.aml_events!.count).toBe(SCALE.amlEvents);
    for (const table of ['geo_audit_log', 'events', 'webhook_attempts', 'audit_log']) {
      expect(before[table]!.count, table).toBe(ROWS);
    }
    expect(after).toEqual(before);
    const keys = await sql<{ missing: number; keys: number }>`
      select (select count(*)::int from aml_events e where not exists (select 1 from aml_event_keys k
          where k.tenant_id = e.tenant_id and k.transaction_id = e.transaction_id and k.event_id = e.event_id
            and k.occurred_at = e.occurred_at)) as missing,
        (select count(*)::int from aml_event_keys) as keys`.execute(suite.current.db);
    expect(keys.rows).toEqual([{ missing: 0, keys: SCALE.amlEvents }]);
  });

  it('serves the migrated rows from the partition of everything before the next month, and takes new ones', async () => {
    const { db } = suite.current;
    const { rows } = await sql<{ partition: string; count: number }>`
      select tableoid::regclass::text as partition, count(*)::int as count from geo_audit_log group by 1`.execute(
      db,
    );
    expect(rows).toEqual([
      { partition: expect.stringMatching(/^partitions\.geo_audit_log_before_\d{8}$/), count: ROWS },
    ]);
    // The identities go on from where the old tables' left off.
    const next = await sql<{ audit_id: string }>`
      insert into audit_log (tenant_id, occurred_at, actor, action, details)
      values ('ten_seed_a', now(), 'staff:x', 'test', '{}') returning audit_id`.execute(db);
    expect(Number(next.rows[0]!.audit_id)).toBe(ROWS + 1);

    const aml = await sql<{ partition: string; count: number }>`
      select tableoid::regclass::text as partition, count(*)::int as count from aml_events group by 1`.execute(
      db,
    );
    expect(aml.rows).toEqual([
      { partition: expect.stringMatching(/^partitions\.aml_events_before_\d{8}$/), count: SCALE.amlEvents },
    ]);
  });
});

/** The AML events' keys prepared as docs/data.md says, while events arrive; then the migration copies nothing. */
describe("migration 0038 with the AML events' keys prepared beforehand", () => {
  const PREPARATION = /```sql\n(-- The AML events' keys, prepared[\s\S]*?)```/.exec(
    readFileSync('docs/data.md', 'utf8'),
  )![1]!;
  const event = (db: Kysely<unknown>, n: number) =>
    sql`insert into aml_events (event_id, tenant_id, user_id, event_type, transaction_id, amount_cents, currency,
        usd_cents, metadata, occurred_at, received_at, request_hash)
      values (${`amlevt_${n}`}, 'ten_p', 'u', 'deposit', ${`tx-${n}`}, 100, 'USD', 100, '{}', now(), now(), 'h')
      on conflict (tenant_id, transaction_id) do nothing`.execute(db);

  const suite = useSuite(async (own) => {
    const { database, migrateTo } = await openUnmigratedDatabase(own);
    const db = database.db as Kysely<unknown>;
    await migrateTo('2026-12-03T0037_retention_overrides');
    await sql`insert into tenants (tenant_id, name, environment, signing_secret, created_at, updated_at)
      values ('ten_p', 'P', 'sandbox', 's', now(), now())`.execute(db);
    await event(db, 1);
    await event(db, 2);
    await executeStatements(db, PREPARATION);
    // Events the old version stores after the preparation: the trigger keys them; a repeat stores nothing.
    await event(db, 3);
    await event(db, 3);
    await migrateTo('2026-12-04T0038_aml_events_partitions');
    return database.db;
  });

  it('keys every event, old and new, by the prepared table, now with its primary key and without the trigger', async () => {
    const db = suite.current;
    const keys = await db.selectFrom('aml_event_keys').select(['transaction_id', 'event_id']).execute();
    expect(keys.sort((a, b) => a.event_id.localeCompare(b.event_id))).toEqual([
      { transaction_id: 'tx-1', event_id: 'amlevt_1' },
      { transaction_id: 'tx-2', event_id: 'amlevt_2' },
      { transaction_id: 'tx-3', event_id: 'amlevt_3' },
    ]);
    const { rows } = await sql<{ constraints: string[]; triggers: number }>`
      select array(select conname::text from pg_constraint where conrelid = 'aml_event_keys'::regclass and contype in ('p', 'u')) as constraints,
        (select count(*)::int from pg_trigger where tgname = 'aml_event_keys_copy') as triggers`.execute(db);
    expect(rows).toEqual([{ constraints: ['aml_event_keys_pkey'], triggers: 0 }]);
    await expect(
      sql`insert into aml_event_keys values ('ten_p', 'tx-1', 'amlevt_9', now())`.execute(db),
    ).rejects.toThrow(/aml_event_keys_pkey/);
  });
});
