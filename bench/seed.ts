/**
 * The benchmark's bulk loader. Tenants and keys are made through the back-office API (so they are real
 * tenants); the volume data is then written straight into the tables with set-based SQL, because a million
 * rows through HTTP would take longer than the benchmark itself. Rows have the shapes the service writes.
 */
import { sql } from 'kysely';
import { contactHash } from '../src/areas/exclusions/contact.js';
import { setHashes } from '../src/areas/exclusions/exclusions.store.js';
import { openDatabase } from '../src/platform/db/database.js';
import { openSecrets } from '../src/platform/key-rotation.js';
import { KeyRing, parseSecretsKey } from '../src/platform/secrets.js';

export interface SeedScale {
  tenants: number;
  usersPerTenant: number;
  deposits: number;
  exclusions: number;
  amlEvents: number;
}

export const FULL_SCALE: SeedScale = {
  tenants: 3,
  usersPerTenant: 10_000,
  deposits: 1_000_000,
  exclusions: 1_000_000,
  amlEvents: 1_000_000,
};

export const QUICK_SCALE: SeedScale = {
  tenants: 3,
  usersPerTenant: 1_000,
  deposits: 60_000,
  exclusions: 60_000,
  amlEvents: 60_000,
};

const DAY = 86_400;
const HASH_BATCH = 50_000;
const seedExclusionId = (n: number) => `exc_seed_${String(n).padStart(9, '0')}`;

/** Runs and times a seed's named steps: each step's seconds in `timings`, and a line in the log. */
export function seedSteps(log: (line: string) => void) {
  const timings: Record<string, number> = {};
  const timed = async (name: string, work: () => Promise<unknown>) => {
    const started = performance.now();
    await work();
    timings[name] = Math.round((performance.now() - started) / 100) / 10;
    log(`  seeded ${name} in ${timings[name]} s`);
  };
  return { timings, timed };
}

/** Writes the volume data for the given tenants; returns seconds taken per table. */
export async function seedVolume(
  database: { url: string | undefined; dataDir: string },
  tenantIds: string[],
  scale: SeedScale,
  log: (line: string) => void,
  /** The environment of the tenants: their register rows are that environment's. */
  environment: 'sandbox' | 'live' = 'sandbox',
): Promise<Record<string, number>> {
  const { db, close } = await openDatabase({ url: database.url, dataDir: database.dataDir });
  const { timings, timed } = seedSteps(log);
  const step = (name: string, statement: ReturnType<typeof sql>) => timed(name, () => statement.execute(db));
  const tenants = sql`(select t.tenant_id, t.ord - 1 as ord from unnest(${tenantIds}::text[]) with ordinality as t(tenant_id, ord))`;
  const users = scale.usersPerTenant;
  try {
    // Every user has 1 to 3 limits in force: daily, then weekly, then monthly.
    await step(
      'deposit_limits',
      sql`insert into deposit_limits (limit_id, tenant_id, user_id, limit_type, amount_cents, currency,
            current_limit_cents, is_increase, cooloff_seconds, requested_at, created_at, effective_from, status, request_hash)
          select 'lim_seed_' || t.ord || '_' || u || '_' || lt.k, t.tenant_id, 'user_' || u, lt.limit_type, lt.amount,
                 'USD', null, false, 0, now() - interval '120 days', now() - interval '120 days',
                 now() - interval '120 days', 'active', 'seed'
          from ${tenants} t cross join generate_series(0, ${users - 1}) u
          cross join (values (0, 'limit_daily', 100000), (1, 'limit_weekly', 400000), (2, 'limit_monthly', 1500000))
            as lt(k, limit_type, amount)
          where lt.k <= u % 3`,
    );
    // Every other user has a daily loss limit and a weekly wager limit too (the wager check's).
    await step(
      'stake_limits',
      sql`insert into deposit_limits (limit_id, tenant_id, user_id, limit_kind, limit_type, amount_cents, currency,
            current_limit_cents, is_increase, cooloff_seconds, requested_at, created_at, effective_from, status, request_hash)
          select 'lim_seed_' || t.ord || '_' || u || '_' || lk.kind, t.tenant_id, 'user_' || u, lk.kind, lk.limit_type,
                 lk.amount, 'USD', null, false, 0, now() - interval '120 days', now() - interval '120 days',
                 now() - interval '120 days', 'active', 'seed'
          from ${tenants} t cross join generate_series(0, ${users - 1}) u
          cross join (values ('loss', 'limit_daily', 200000), ('wager', 'limit_weekly', 2000000)) as lk(kind, limit_type, amount)
          where u % 2 = 0`,
    );
    // One user in twenty is on a week's break (the player status reads the time-out in force).
    await step(
      'time_outs',
      sql`insert into time_outs (time_out_id, tenant_id, user_id, duration, reason, channel, starts_at, ends_at, status)
          select 'tmo_seed_' || t.ord || '_' || u, t.tenant_id, 'user_' || u, 'duration_7d', 'self_initiated', 'api',
                 now() - interval '1 day', now() + interval '6 days', 'active'
          from ${tenants} t cross join generate_series(0, ${users - 1}) u
          where u % 20 = 0`,
    );
    // Committed deposits spread over the last 90 days.
    await step(
      'deposits',
      sql`insert into deposits (tenant_id, transaction_id, user_id, amount_cents, currency, committed_at, recorded_at, request_hash)
          select t.tenant_id, 'seed-dep-' || g, 'user_' || (g / ${tenantIds.length}) % ${users},
                 500 + (g * 7919) % 20000, 'USD', c.at, c.at, 'seed'
          from generate_series(0::bigint, ${scale.deposits - 1}) g
          join ${tenants} t on t.ord = g % ${tenantIds.length}
          cross join lateral (select now() - make_interval(secs => (g * 104729) % ${90 * DAY})) as c(at)`,
    );
    // The national register: a quarter operators' rows, the rest regulator rows; some permanent, some expired.
    await step(
      'exclusions',
      sql`insert into exclusions (exclusion_id, environment, origin, channel, tenant_id, user_id, email, email_canonical, phone, duration,
            is_permanent, reason, initiated_at, effective_from, expires_at, regulator_propagated, status, request_hash, expired_at)
          select 'exc_seed_' || lpad(g::text, 9, '0'), ${environment},
                 case when g % 4 = 0 then 'operator' else 'regulator' end,
                 case when g % 4 = 0 then 'api' else 'regulator' end,
                 case when g % 4 = 0 then t.tenant_id end,
                 case when g % 4 = 0 then 'ex_' || g end,
                 'excluded' || g || '@bench.example', 'excluded' || g || '@bench.example',
                 case when g % 3 = 0 then '+1555' || lpad((g % 10000000)::text, 7, '0') end,
                 case when g % 10 = 0 then 'duration_permanent' else 'duration_1y' end,
                 g % 10 = 0, 'self_initiated', e.start, e.start,
                 case when g % 10 <> 0 then e.start + interval '1 year' end,
                 true,
                 case when g % 10 <> 0 and e.start + interval '1 year' < now() then 'expired' else 'active' end,
                 'seed-' || g,
                 case when g % 10 <> 0 and e.start + interval '1 year' < now() then e.start + interval '1 year' end
          from generate_series(0::bigint, ${scale.exclusions - 1}) g
          join ${tenants} t on t.ord = g % ${tenantIds.length}
          cross join lateral (select now() - make_interval(secs => (g * 7907) % ${400 * DAY})) as e(start)`,
    );
    // The contacts' keyed hashes, under the hash key the service runs with, so it finds no row left to backfill.
    await timed('exclusion_hashes', async () => {
      const ring = new KeyRing(parseSecretsKey(process.env.COMPLIANCE_SECRETS_KEY ?? '')!);
      const { secrets } = await openSecrets(db, ring, new Date());
      for (let from = 0; from < scale.exclusions; from += HASH_BATCH) {
        const rows = await db
          .selectFrom('exclusions')
          .select(['exclusion_id', 'email_canonical', 'phone'])
          .where('exclusion_id', '>=', seedExclusionId(from))
          .where('exclusion_id', '<', seedExclusionId(from + HASH_BATCH))
          .execute();
        await setHashes(
          db,
          rows.map((row) => ({
            exclusion_id: row.exclusion_id,
            email_hash: row.email_canonical && contactHash(secrets, 'email', row.email_canonical),
            phone_hash: row.phone && contactHash(secrets, 'phone', row.phone),
          })),
        );
      }
    });
    // AML history over 90 days, already evaluated (out of the queue). One user per card, so R-006 stays quiet.
    await step(
      'aml_events',
      sql`insert into aml_events (event_id, tenant_id, user_id, event_type, transaction_id, amount_cents, currency,
            usd_cents, payment_method, fingerprint, metadata, occurred_at, received_at, request_hash)
          select 'amlevt_seed_' || g, t.tenant_id, 'user_' || u.n, ty.event_type, 'seed-aml-' || g,
                 case when ty.event_type = 'login' then 0 else 500 + (g * 6151) % 30000 end, 'USD',
                 case when ty.event_type = 'login' then 0 else 500 + (g * 6151) % 30000 end,
                 'card_' || u.n,
                 case when ty.event_type in ('deposit', 'withdrawal') then 'card_' || u.n end,
                 '{}'::jsonb, c.at, c.at, 'seed'
          from generate_series(0::bigint, ${scale.amlEvents - 1}) g
          join ${tenants} t on t.ord = g % ${tenantIds.length}
          cross join lateral (select (g / ${tenantIds.length}) % ${users}) as u(n)
          cross join lateral (select (array['wager','wager','wager','deposit','settlement','login','withdrawal'])[1 + g % 7]) as ty(event_type)
          cross join lateral (select now() - make_interval(secs => 3600 + (g * 104723) % ${90 * DAY})) as c(at)`,
    );
    // Their natural keys, where the schema has them (the migration test seeds the schema before their migration).
    const keyed = await sql<{
      present: boolean;
    }>`select to_regclass('aml_event_keys') is not null as present`.execute(db);
    if (keyed.rows[0]!.present)
      await step(
        'aml_event_keys',
        sql`insert into aml_event_keys (tenant_id, transaction_id, event_id, occurred_at)
          select tenant_id, transaction_id, event_id, occurred_at from aml_events`,
      );
    // Vacuumed now, so that autovacuum does not wake up during the measured phases.
    await step('vacuum', sql`vacuum analyze`);
    // The bulk load's dirty pages are written out now, not by a checkpoint spread over the measured phases (which
    // would also make every page's first change after it write a full-page image to the WAL).
    if (database.url) await step('checkpoint', sql`checkpoint`);
  } finally {
    await close();
  }
  return timings;
}
