import { sql, type Insertable } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import { usdCentsSql } from '../../platform/fx.js';
import {
  columnArrays,
  unnestArrays,
  precompiled,
  type ColumnArrays,
  type Param,
} from '../../platform/db/precompiled.js';
import { newId } from '../../platform/ids.js';
import { reviewJobKind } from '../../platform/review-deadlines.js';
import { AML_RULES, type RuleCode } from './aml.rules.js';
import {
  AWAITING_REVIEW_STATUSES,
  OPEN_CASE_STATUSES,
  type AmlCase,
  type AmlCaseOrigin,
  type AmlCaseStatus,
  type AmlCasesTable,
  type AmlEvent,
  type AmlEventsTable,
  type AmlScreen,
  type AmlScreensTable,
} from './aml.tables.js';
import type { Trip } from './rules/types.js';

/** Plain queries over the AML tables; every tenant-owned read filters by tenant. */

/**
 * The values an ingested event sends: its columns but usd_cents, which the storing statement computes from the
 * rate current when it runs (usdCentsSql), with the currency's minor-unit scale sent for that. A conversion is
 * then no round trip of its own: a tenant whose events are in euros pays what one in dollars does.
 */
const EVENT_VALUES = {
  event_id: 'text',
  tenant_id: 'text',
  user_id: 'text',
  event_type: 'text',
  transaction_id: 'text',
  amount_cents: 'bigint',
  currency: 'text',
  minor_scale: 'integer',
  payment_method: 'text',
  fingerprint: 'text',
  status: 'text',
  metadata: 'jsonb',
  occurred_at: 'timestamptz',
  received_at: 'timestamptz',
  request_hash: 'text',
} as const;

type SentColumn = Exclude<keyof typeof EVENT_VALUES, 'minor_scale'>;
export type NewEvent = { [K in SentColumn]: Insertable<AmlEventsTable>[K] } & { minor_scale: number };

const SENT_COLUMNS = Object.keys(EVENT_VALUES).filter((name) => name !== 'minor_scale') as SentColumn[];

/** Stores the events and queues each one stored for evaluation, in one statement (so one commit). */
const insertEventsStatement = precompiled((db, param: Param<ColumnArrays<typeof EVENT_VALUES>>) => {
  // An amount of 0 (a login, say) is 0 in any currency, with or without a rate.
  const usdCents = sql`case when v.amount_cents = 0 then 0 else ${usdCentsSql(
    sql.ref('v.amount_cents'),
    sql.ref('v.currency'),
    sql.ref('v.minor_scale'),
  )} end`;
  const rows = sql`select ${sql.join([...SENT_COLUMNS.map((name) => sql.ref(`v.${name}`)), usdCents])}
    from ${unnestArrays(EVENT_VALUES, param)} as v(${sql.join(Object.keys(EVENT_VALUES).map((name) => sql.id(name)))})`;
  return db
    .with('stored', () =>
      db
        .insertInto('aml_events')
        .columns([...SENT_COLUMNS, 'usd_cents'])
        .expression(rows)
        .onConflict((oc) => oc.columns(['tenant_id', 'transaction_id']).doNothing())
        .returning(['event_id', 'received_at']),
    )
    .with('queued', (qb) =>
      qb
        .insertInto('aml_evaluation_queue')
        .columns(['event_id', 'received_at'])
        .expression((eb) => eb.selectFrom('stored').select(['event_id', 'received_at'])),
    )
    .selectFrom('stored')
    .select(['event_id', 'received_at']);
});

/**
 * Stores events and queues them for evaluation, in one statement; per row, its acknowledgement, or undefined when
 * its transaction_id is taken (that event is neither stored nor queued again).
 */
export async function insertEvents(db: Executor, rows: NewEvent[]) {
  const inserted = await insertEventsStatement.execute(db, columnArrays(EVENT_VALUES, rows));
  const byId = new Map(inserted.map((row) => [row.event_id, row]));
  return rows.map((row) => byId.get(row.event_id));
}

export function findEventByTransaction(db: Executor, tenantId: string, transactionId: string) {
  return db
    .selectFrom('aml_events')
    .select(['event_id', 'received_at', 'request_hash', 'status'])
    .where('tenant_id', '=', tenantId)
    .where('transaction_id', '=', transactionId)
    .executeTakeFirst();
}

/**
 * Records the outcome of a pending event (succeeded or failed) and queues it for evaluation again, in one statement;
 * undefined when the event is no longer pending (a concurrent report settled it first).
 */
export async function settlePendingEvent(
  db: Executor,
  eventId: string,
  status: 'succeeded' | 'failed',
  at: Date,
): Promise<{ event_id: string } | undefined> {
  return db
    .with('settled', (qb) =>
      qb
        .updateTable('aml_events')
        .set({ status })
        .where('event_id', '=', eventId)
        .where('status', '=', 'pending')
        .returning('event_id'),
    )
    .with('queued', (qb) =>
      qb
        .insertInto('aml_evaluation_queue')
        .columns(['event_id', 'received_at'])
        .expression((eb) =>
          eb.selectFrom('settled').select(['event_id', sql<Date>`${at}::timestamptz`.as('received_at')]),
        ),
    )
    .selectFrom('settled')
    .select('event_id')
    .executeTakeFirst();
}

/**
 * Takes the oldest events off the evaluation queue and returns them, oldest first. The queue rows are locked
 * (other processes skip them) and deleted in the caller's transaction: they are back in the queue if it rolls
 * back, and gone for good when it commits.
 */
const dequeueStatement = precompiled((db, param: Param<{ limit: number }>) =>
  db
    .with('taken', (qb) =>
      qb
        .deleteFrom('aml_evaluation_queue')
        .where(
          sql<string>`ctid`,
          '=',
          sql<string>`any(array(select ctid from aml_evaluation_queue order by received_at limit ${param('limit')}
            for update skip locked))`,
        )
        .returning('event_id'),
    )
    .selectFrom('aml_events')
    .innerJoin('taken', 'taken.event_id', 'aml_events.event_id')
    .selectAll('aml_events')
    .orderBy('aml_events.received_at')
    .orderBy('aml_events.event_id'),
);

export function dequeueEvents(db: Executor, limit: number): Promise<AmlEvent[]> {
  return dequeueStatement.execute(db, { limit });
}

/** Takes events off the evaluation queue in the caller's transaction, which schedules their retries (see aml.evaluator.ts). */
export async function dropFromQueue(db: Executor, eventIds: string[]): Promise<number> {
  if (eventIds.length === 0) return 0;
  const result = await db
    .deleteFrom('aml_evaluation_queue')
    .where('event_id', 'in', eventIds)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export function findEvent(db: Executor, eventId: string): Promise<AmlEvent | undefined> {
  return db.selectFrom('aml_events').selectAll().where('event_id', '=', eventId).executeTakeFirst();
}

export function eventsByTransaction(
  db: Executor,
  tenantId: string,
  transactionIds: string[],
): Promise<AmlEvent[]> {
  if (transactionIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('aml_events')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('transaction_id', 'in', transactionIds)
    .orderBy('occurred_at')
    .execute();
}

/** The R-009 window of a tenant: its setting, or the catalogue's default. */
export async function r009WindowSeconds(db: Executor, tenantId: string): Promise<number> {
  const row = await db
    .selectFrom('aml_settings')
    .select('r009_window_seconds')
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  return row?.r009_window_seconds ?? AML_RULES['R-009'].parameters.default_window_seconds;
}

export async function saveR009Window(
  db: Executor,
  tenantId: string,
  seconds: number,
  at: Date,
): Promise<void> {
  await db
    .insertInto('aml_settings')
    .values({ tenant_id: tenantId, r009_window_seconds: seconds, updated_at: at })
    .onConflict((oc) => oc.column('tenant_id').doUpdateSet({ r009_window_seconds: seconds, updated_at: at }))
    .execute();
}

/** Serialises case changes of one user (async evaluation, jobs and screens may touch them at once). */
export async function lockUserCases(db: Executor, tenantId: string, userId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`aml/${tenantId}/${userId}`}, 0))`.execute(db);
}

export function findOpenAsyncCase(
  db: Executor,
  tenantId: string,
  userId: string,
): Promise<AmlCase | undefined> {
  return db
    .selectFrom('aml_cases')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('source', '=', 'async')
    .where('status', 'in', OPEN_CASE_STATUSES)
    .executeTakeFirst();
}

/**
 * Records a trip unless the same pattern was reported already. A window rule (cooldown) may trip again once its
 * window has passed since the last trip, in event time. Returns whether the trip is new.
 */
export async function claimTrip(
  db: Executor,
  tenantId: string,
  trip: Trip,
  caseId: string,
): Promise<boolean> {
  const row = await db
    .insertInto('aml_rule_trips')
    .values({
      tenant_id: tenantId,
      user_id: trip.userId,
      rule_code: trip.rule,
      pattern_key: trip.patternKey,
      case_id: caseId,
      tripped_at: trip.at,
    })
    .onConflict((oc) => {
      const target = oc.columns(['tenant_id', 'user_id', 'rule_code', 'pattern_key']);
      if (trip.cooldownSeconds === undefined) return target.doNothing();
      return target
        .doUpdateSet({ case_id: caseId, tripped_at: trip.at })
        .where(
          sql<boolean>`aml_rule_trips.tripped_at + make_interval(secs => ${trip.cooldownSeconds}) <= ${trip.at}`,
        );
    })
    .returning('rule_code')
    .executeTakeFirst();
  return row !== undefined;
}

type NewCase = Omit<Insertable<AmlCasesTable>, 'rules_triggered' | 'transaction_ids' | 'context'> & {
  rules_triggered: RuleCode[];
  transaction_ids: string[];
  context: unknown[];
};

const jsonColumns = (row: Pick<NewCase, 'rules_triggered' | 'transaction_ids' | 'context'>) => ({
  rules_triggered: JSON.stringify(row.rules_triggered),
  transaction_ids: JSON.stringify(row.transaction_ids),
  context: JSON.stringify(row.context),
});

export function insertCase(db: Executor, row: NewCase): Promise<AmlCase> {
  return db
    .insertInto('aml_cases')
    .values({ ...row, ...jsonColumns(row) })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function updateCaseFindings(
  db: Executor,
  caseId: string,
  row: Pick<NewCase, 'rules_triggered' | 'transaction_ids' | 'context' | 'risk_score' | 'updated_at'>,
): Promise<AmlCase> {
  return db
    .updateTable('aml_cases')
    .set({ ...jsonColumns(row), risk_score: row.risk_score, updated_at: row.updated_at })
    .where('case_id', '=', caseId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function setCaseStatus(
  db: Executor,
  caseId: string,
  change: { status: AmlCaseStatus; reviewer: string; reason: string; at: Date; reviewedAt: Date | null },
): Promise<AmlCase> {
  return db
    .updateTable('aml_cases')
    .set({
      status: change.status,
      reviewer: change.reviewer,
      decision_reason: change.reason,
      decided_at: change.at,
      updated_at: change.at,
      reviewed_at: change.reviewedAt,
    })
    .where('case_id', '=', caseId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function findCase(db: Executor, caseId: string, forUpdate = false): Promise<AmlCase | undefined> {
  const query = db.selectFrom('aml_cases').selectAll().where('case_id', '=', caseId);
  return (forUpdate ? query.forUpdate() : query).executeTakeFirst();
}

export function casesOfUser(db: Executor, tenantId: string, userId: string): Promise<AmlCase[]> {
  return db
    .selectFrom('aml_cases')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .orderBy('opened_at', 'desc')
    .orderBy('case_id', 'desc')
    .execute();
}

/**
 * Cases by due time, oldest first, then by case id; `after` is the case_id of the last row of the previous page
 * (keyset on (due_at, case_id): aml_cases_due, aml_cases_tenant_due, aml_cases_status_due). overdueAt: only cases
 * awaiting review whose due time is at or before it.
 */
export function listCases(
  db: Executor,
  filter: {
    status?: AmlCaseStatus | undefined;
    tenantId?: string | undefined;
    userId?: string | undefined;
    overdueAt?: Date | undefined;
    after?: string | undefined;
    limit: number;
  },
): Promise<AmlCase[]> {
  let query = db.selectFrom('aml_cases').selectAll();
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.tenantId) query = query.where('tenant_id', '=', filter.tenantId);
  if (filter.userId) query = query.where('user_id', '=', filter.userId);
  if (filter.overdueAt) {
    query = query.where('status', 'in', AWAITING_REVIEW_STATUSES).where('due_at', '<=', filter.overdueAt);
  }
  if (filter.after) {
    const after = filter.after;
    query = query.where(({ eb, refTuple, selectFrom }) =>
      eb(
        refTuple('due_at', 'case_id'),
        '>',
        selectFrom('aml_cases')
          .select(['due_at', 'case_id'])
          .where('case_id', '=', after)
          .$asTuple('due_at', 'case_id'),
      ),
    );
  }
  return query.orderBy('due_at').orderBy('case_id').limit(filter.limit).execute();
}

/** What a screen's case holds beyond the screen row itself, and the review alerts it schedules. */
export interface ScreenCase {
  status: AmlCaseStatus;
  origin: AmlCaseOrigin;
  transaction_ids: string;
  context: string;
  due_at: Date;
  /** The "due soon" alert's time (due_at less the warning hours). */
  warning_at: Date;
}

/** The review alerts' jobs, which the screen's one statement stores itself (scheduleReviewDeadlines elsewhere). */
const REVIEW_JOB_KINDS = {
  soon: reviewJobKind('aml', 'review_due_soon'),
  overdue: reviewJobKind('aml', 'review_overdue'),
} as const;

/**
 * Stores a screen and, when it has a case_id (hold, reject), opens its case and schedules its two review alerts in
 * the same statement: one round trip and one commit, atomic without a transaction block. Does nothing when the
 * withdrawal was screened already (undefined).
 */
const insertScreenStatement = precompiled(
  (
    db,
    param: Param<
      Insertable<AmlScreensTable> & {
        [K in keyof ScreenCase as `case_${K}`]: ScreenCase[K];
      } & { soon_job_id: string; overdue_job_id: string; review_payload: string }
    >,
  ) =>
    db
      .with('screen', (qb) =>
        qb
          .insertInto('aml_screens')
          .values({
            tenant_id: param('tenant_id'),
            withdrawal_id: param('withdrawal_id'),
            user_id: param('user_id'),
            amount_cents: param('amount_cents'),
            currency: param('currency'),
            usd_cents: param('usd_cents'),
            payment_method: param('payment_method'),
            destination_country: param('destination_country'),
            decision: param('decision'),
            risk_score: param('risk_score'),
            rules_triggered: param('rules_triggered'),
            case_id: param('case_id'),
            request_hash: param('request_hash'),
            screened_at: param('screened_at'),
          })
          .onConflict((oc) => oc.columns(['tenant_id', 'withdrawal_id']).doNothing())
          .returningAll(),
      )
      .with('opened', (qb) =>
        qb
          .insertInto('aml_cases')
          .columns([
            'case_id',
            'tenant_id',
            'user_id',
            'status',
            'source',
            'withdrawal_id',
            'rules_triggered',
            'risk_score',
            'transaction_ids',
            'context',
            'opened_at',
            'updated_at',
            'origin',
            'due_at',
          ])
          .expression((eb) =>
            eb
              .selectFrom('screen')
              .select([
                'case_id',
                'tenant_id',
                'user_id',
                sql`${param('case_status')}::text`.as('status'),
                sql.lit('realtime').as('source'),
                'withdrawal_id',
                'rules_triggered',
                'risk_score',
                sql`${param('case_transaction_ids')}::jsonb`.as('transaction_ids'),
                sql`${param('case_context')}::jsonb`.as('context'),
                'screened_at',
                'screened_at',
                sql`${param('case_origin')}::text`.as('origin'),
                sql`${param('case_due_at')}::timestamptz`.as('due_at'),
              ])
              .where('case_id', 'is not', null),
          )
          .returning(['case_id', 'tenant_id']),
      )
      .with('review_alerts', (qb) =>
        qb
          .insertInto('scheduled_jobs')
          .columns(['job_id', 'kind', 'subject_id', 'tenant_id', 'due_at', 'payload'])
          .expression(
            sql`select j.job_id, j.kind, opened.case_id, opened.tenant_id, j.due_at, ${param('review_payload')}::jsonb
              from opened cross join (values
                (${param('soon_job_id')}::text, ${REVIEW_JOB_KINDS.soon}::text, ${param('case_warning_at')}::timestamptz),
                (${param('overdue_job_id')}::text, ${REVIEW_JOB_KINDS.overdue}::text, ${param('case_due_at')}::timestamptz)
              ) as j (job_id, kind, due_at)`,
          ),
      )
      .selectFrom('screen')
      .selectAll(),
);

export async function insertScreen(
  db: Executor,
  screen: Insertable<AmlScreensTable>,
  opened: ScreenCase,
): Promise<AmlScreen | undefined> {
  const [row] = await insertScreenStatement.execute(db, {
    ...screen,
    case_status: opened.status,
    case_origin: opened.origin,
    case_transaction_ids: opened.transaction_ids,
    case_context: opened.context,
    case_due_at: opened.due_at,
    case_warning_at: opened.warning_at,
    soon_job_id: newId('job'),
    overdue_job_id: newId('job'),
    review_payload: JSON.stringify({ due_at: opened.due_at.toISOString() }),
  });
  return row;
}

export function findScreen(db: Executor, tenantId: string, withdrawalId: string) {
  return db
    .selectFrom('aml_screens')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('withdrawal_id', '=', withdrawalId)
    .executeTakeFirst();
}
