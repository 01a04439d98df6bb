import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Executor } from '../../../platform/db/database.js';
import type { Environment } from '../../../platform/db/platform-tables.js';
import {
  columnArrays,
  precompiled,
  unnestArrays,
  type ColumnArrays,
  type Param,
} from '../../../platform/db/precompiled.js';
import type { DB } from '../../../platform/db/schema.js';
import { type Duration, SOURCE_NAMES, type SourceNames } from '../exclusions.rules.js';
import type { Source } from '../exclusions.schemas.js';

/** The exclusion check (benchmark row exclusions_check) and the fragments it shares with the snapshot's reads. */

/** A literal, not a parameter, as the partial indexes' predicates are (status = 'active'). */
export const ACTIVE = sql.lit('active' as const);

/** The spec's source of a row for the tenant reading it: its own rows are `own`, every other row `other`. */
export const sourceFor = (tenantId: string | RawBuilder<string>, names: SourceNames) =>
  sql<Source>`case when tenant_id = ${tenantId} then ${sql.lit(names.own)} else ${sql.lit(names.other)} end`;

/** Active now: marked active and not past its expiry, whether or not the expiry job has run yet. */
export function activeIn(
  db: Executor,
  environment: Environment | RawBuilder<Environment>,
  now: Date | RawBuilder<Date>,
) {
  return db
    .selectFrom('exclusions')
    .where('environment', '=', environment)
    .where('status', '=', ACTIVE)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]));
}

/** What one live check reads, with PostgreSQL types: the checks of one group travel as one array of each. */
const CHECK_POINT = {
  tenantId: 'text',
  environment: 'text',
  email: 'text',
  phone: 'text',
  includeRegulator: 'boolean',
  now: 'timestamptz',
} as const;

export interface CheckParams {
  tenantId: string;
  environment: Environment;
  email: string | null;
  phone: string | null;
  includeRegulator: boolean;
  now: Date;
}

export interface CheckMatch {
  exclusion_id: string;
  duration: Duration;
  expires_at: Date | null;
  is_permanent: boolean;
  source: Source;
}

/** A column of the unnested checks (`p`) that checkStatement reads one row per check from. */
const checkColumn = <T>(name: string) => sql.ref<T>(`p.${name}`);

/**
 * One contact's rows active now for a check, with their source for its tenant: a plain scan of the contact's
 * (environment, contact) partial index. A null contact matches nothing.
 */
const activeBy = (db: Kysely<DB>, contact: 'email' | 'phone') =>
  activeIn(db, checkColumn<Environment>('environment'), checkColumn<Date>('now'))
    .select(['exclusion_id', 'duration', 'expires_at', 'is_permanent', 'tenant_id'])
    .select(sourceFor(checkColumn<string>('tenant_id'), SOURCE_NAMES).as('source'))
    .where(contact === 'email' ? 'email_canonical' : 'phone', '=', checkColumn<string>(contact))
    .where(sql<boolean>`(p.include_regulator or tenant_id = p.tenant_id)`);

/**
 * The live check, for any number of checks at once: per check, the most restrictive active match for its email or
 * its phone. Most restrictive first: permanent, then the latest expiry, then the caller's own row over an equal one
 * from the national list. One statement, compiled once, whatever the group's size: the checks that arrive while one
 * is in flight share the next round trip. Each contact has its own `union all` branch: a single `email = … or
 * phone = …` would need a bitmap of both indexes.
 */
const checkStatement = precompiled(
  (db, param: Param<ColumnArrays<typeof CHECK_POINT>>) => sql<CheckMatch | { exclusion_id: null }>`
    select m.exclusion_id, m.duration, m.expires_at, m.is_permanent, m.source
    from ${unnestArrays(CHECK_POINT, param)}
      with ordinality as p (tenant_id, environment, email, phone, include_regulator, now, ord)
    left join lateral (
      select * from ${activeBy(db, 'email').unionAll(activeBy(db, 'phone'))} e
      order by e.is_permanent desc, e.expires_at desc nulls first, e.tenant_id is not distinct from p.tenant_id desc,
        e.exclusion_id
      limit 1
    ) m on true
    order by p.ord`,
);

/** Per check (in order), its most restrictive active match, or undefined. */
export async function mostRestrictiveMatches(
  db: Executor,
  checks: CheckParams[],
): Promise<Array<CheckMatch | undefined>> {
  const rows = await checkStatement.execute(db, columnArrays(CHECK_POINT, checks));
  return rows.map((row) => (row.exclusion_id === null ? undefined : (row as CheckMatch)));
}

/** The statement of a group of checks with its values bound (to inspect its plan). */
export const bindChecks = (checks: CheckParams[]) => checkStatement.bind(columnArrays(CHECK_POINT, checks));
