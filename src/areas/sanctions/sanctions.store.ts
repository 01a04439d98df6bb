import type { Insertable, Updateable } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import type { AppError } from '../../platform/errors.js';
import { insertOnce } from '../../platform/idempotency.js';
import type {
  SanctionsCase,
  SanctionsCasesTable,
  SanctionsRescreenRun,
  SanctionsRescreenRunsTable,
  SanctionsScreen,
  SanctionsScreensTable,
  ScreeningStatus,
} from './sanctions.tables.js';

/**
 * The sanctions area's queries: screens, cases and quarterly re-screen runs (and the tenant row a re-screen needs
 * to pick a matcher). Queries only; the verbs in service/ decide what to write. Staff queries address cases across
 * tenants by design (the review queue is the service's); tenant-facing ones filter by tenant.
 */

// ---- screens ----

export function findScreen(
  db: Executor,
  tenantId: string,
  userId: string,
): Promise<SanctionsScreen | undefined> {
  return db
    .selectFrom('sanctions_screens')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export function findScreenById(db: Executor, screenId: string): Promise<SanctionsScreen> {
  return db
    .selectFrom('sanctions_screens')
    .selectAll()
    .where('screen_id', '=', screenId)
    .executeTakeFirstOrThrow();
}

/** The user's screen, locked until the transaction ends. */
export function lockScreen(
  tx: Executor,
  tenantId: string,
  userId: string,
): Promise<SanctionsScreen | undefined> {
  return tx
    .selectFrom('sanctions_screens')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .forUpdate()
    .executeTakeFirst();
}

/** The first screen of a user (one per tenant and user, by a unique index); a repeat gets the stored row. */
export function insertScreenOnce(
  tx: Executor,
  values: Insertable<SanctionsScreensTable> & { tenant_id: string; user_id: string; request_hash: string },
  conflict: (existing: SanctionsScreen) => AppError,
): Promise<{ row: SanctionsScreen; created: boolean }> {
  return insertOnce<SanctionsScreen>(tx, {
    table: 'sanctions_screens',
    key: ['tenant_id', 'user_id'],
    values,
    conflict,
  });
}

export function updateScreen(
  tx: Executor,
  screenId: string,
  changes: Updateable<SanctionsScreensTable>,
): Promise<SanctionsScreen> {
  return tx
    .updateTable('sanctions_screens')
    .where('screen_id', '=', screenId)
    .returningAll()
    .set(changes)
    .executeTakeFirstOrThrow();
}

/** Sets a decided screen's status and holds (no row returned). */
export async function setScreenStatus(
  tx: Executor,
  screenId: string,
  changes: { status: ScreeningStatus; transactions_held: boolean; updated_at: Date },
): Promise<void> {
  await tx.updateTable('sanctions_screens').set(changes).where('screen_id', '=', screenId).execute();
}

/**
 * The next `limit` screens with one of `statuses` after `after` (screen_id order), of one tenant or all, checked
 * before an instant or whenever, locked until the transaction ends.
 */
export function lockScreensBatch(
  tx: Executor,
  statuses: readonly ScreeningStatus[],
  batch: { after: string | null; limit: number; tenantId?: string; checkedBefore?: Date },
): Promise<SanctionsScreen[]> {
  let query = tx
    .selectFrom('sanctions_screens')
    .selectAll()
    .where('status', 'in', statuses)
    .orderBy('screen_id')
    .limit(batch.limit)
    .forUpdate();
  if (batch.after) query = query.where('screen_id', '>', batch.after);
  if (batch.tenantId) query = query.where('tenant_id', '=', batch.tenantId);
  if (batch.checkedBefore) query = query.where('checked_at', '<', batch.checkedBefore);
  return query.execute();
}

/** How many screens have one of `statuses` and were checked before `before`. */
export async function countScreens(
  tx: Executor,
  statuses: readonly ScreeningStatus[],
  before: Date,
): Promise<number> {
  const population = await tx
    .selectFrom('sanctions_screens')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', 'in', statuses)
    .where('checked_at', '<', before)
    .executeTakeFirstOrThrow();
  return Number(population.n);
}

// ---- cases ----

export async function insertCase(tx: Executor, values: Insertable<SanctionsCasesTable>): Promise<void> {
  await tx.insertInto('sanctions_cases').values(values).execute();
}

export function findCase(db: Executor, caseId: string): Promise<SanctionsCase | undefined> {
  return db.selectFrom('sanctions_cases').selectAll().where('case_id', '=', caseId).executeTakeFirst();
}

/** The case, locked until the transaction ends. */
export function lockCase(tx: Executor, caseId: string): Promise<SanctionsCase | undefined> {
  return tx
    .selectFrom('sanctions_cases')
    .selectAll()
    .where('case_id', '=', caseId)
    .forUpdate()
    .executeTakeFirst();
}

export function recordDecision(
  tx: Executor,
  caseId: string,
  decision: Pick<Updateable<SanctionsCasesTable>, 'status' | 'decided_at' | 'reviewer' | 'decision_reason'>,
): Promise<SanctionsCase> {
  return tx
    .updateTable('sanctions_cases')
    .set(decision)
    .where('case_id', '=', caseId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

// ---- quarterly re-screen runs ----

export function listRescreenRuns(db: Executor, limit: number) {
  return db
    .selectFrom('sanctions_rescreen_runs')
    .select(['quarter', 'started_at', 'total', 'screened', 'new_hits', 'skipped', 'finished_at'])
    .orderBy('started_at', 'desc')
    .limit(limit)
    .execute();
}

/** Records a quarter's run unless it exists (a second start of the same quarter changes nothing). */
export async function insertRescreenRun(
  tx: Executor,
  values: Insertable<SanctionsRescreenRunsTable>,
): Promise<void> {
  await tx
    .insertInto('sanctions_rescreen_runs')
    .values(values)
    .onConflict((oc) => oc.column('quarter').doNothing())
    .execute();
}

/** The quarter's run, locked until the transaction ends. */
export function lockRescreenRun(tx: Executor, quarter: string): Promise<SanctionsRescreenRun | undefined> {
  return tx
    .selectFrom('sanctions_rescreen_runs')
    .selectAll()
    .where('quarter', '=', quarter)
    .forUpdate()
    .executeTakeFirst();
}

export async function updateRescreenRun(
  tx: Executor,
  quarter: string,
  progress: Pick<
    Updateable<SanctionsRescreenRunsTable>,
    'screened' | 'new_hits' | 'skipped' | 'last_screen_id' | 'finished_at'
  >,
): Promise<void> {
  await tx.updateTable('sanctions_rescreen_runs').set(progress).where('quarter', '=', quarter).execute();
}

/** The user's screen (unique on tenant and user) and its cases (sanctions_cases_screen), newest first. */
export async function sanctionsOfUser(db: Executor, tenantId: string, userId: string, limit: number) {
  const screen = await db
    .selectFrom('sanctions_screens')
    .select([
      'screen_id',
      'first_name',
      'last_name',
      'date_of_birth',
      'nationality',
      'email',
      'status',
      'transactions_held',
      'match_count',
      'highest_match_score',
      'case_id',
      'vendor',
      'checked_at',
    ])
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!screen) return { screen: undefined, cases: [] };
  const cases = await db
    .selectFrom('sanctions_cases')
    .select(['case_id', 'status', 'highest_match_score', 'trigger', 'opened_at', 'due_at', 'decided_at'])
    .where('screen_id', '=', screen.screen_id)
    .orderBy('opened_at', 'desc')
    .limit(limit)
    .execute();
  return { screen, cases };
}
