import { sql, type Insertable } from 'kysely';
import type { Executor } from '../../../platform/db/database.js';
import { precompiled, type Param } from '../../../platform/db/precompiled.js';
import { newId } from '../../../platform/ids.js';
import { reviewJobKind } from '../../../platform/review-deadlines.js';
import { REALTIME_CASE_SOURCE } from '../aml.case-rules.js';
import type { AmlCaseOrigin, AmlCaseStatus, AmlScreen, AmlScreensTable } from '../aml.tables.js';

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
                sql.lit(REALTIME_CASE_SOURCE).as('source'),
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
