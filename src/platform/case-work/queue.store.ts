import { sql, type Kysely } from 'kysely';
import type { Executor } from '../db/database.js';
import { countRows } from '../db/count.js';
import { keyset } from '../db/keyset.js';
import type { AssigneeFilter, QueueCase, QueueTable, ReviewQueueDescriptor } from './descriptor.js';

/**
 * The review queues' statements, built from a queue's descriptor: plain Kysely over the table and columns it names.
 * Queues span tenants by design (they are the staff's), filtered by tenant only when asked.
 */

/** A descriptor as the statements read it: names only, whatever the table. */
interface QueueNames {
  queue: string;
  table: string;
  id: string;
  dueAt: string;
  statuses: readonly string[];
  awaiting: readonly string[];
  dueAtMayBeNull?: true;
}

/** The table is named at run time: the statements see it untyped, and callers get its rows back typed. */
const untyped = (db: Executor) => db as unknown as Kysely<Record<string, Record<string, unknown>>>;

/** The queue's rows: every row of its table, or those whose due time is set. */
function queueRows(db: Executor, d: QueueNames) {
  const rows = untyped(db).selectFrom(d.table);
  return d.dueAtMayBeNull ? rows.where(d.dueAt, 'is not', null) : rows;
}

/**
 * Statuses as literals, never parameters: a partial index on them (aml_cases_awaiting_due, kyc_checks_pending_review)
 * must be provable from a prepared statement's generic plan too. A status the queue does not name stays a parameter.
 */
const statusList = (d: QueueNames, statuses: readonly string[]) =>
  statuses.map((s) => (d.statuses.includes(s) || d.awaiting.includes(s) ? sql.lit(s) : s));

const dueKey = (at: { dueAt: Date; id: string }) =>
  [sql`${at.dueAt.toISOString()}::timestamptz`, at.id] as const;

export interface QueueSelection {
  statuses?: readonly string[] | undefined;
  tenantId?: string | undefined;
  userId?: string | undefined;
  /** true: awaiting review and due at or before `at`; false: every other case. */
  overdue?: boolean | undefined;
  at: Date;
  /** The (due time, id) of the last case of the previous page. */
  after?: { dueAt: Date; id: string } | undefined;
  assignee?: AssigneeFilter | undefined;
  limit: number;
}

/** Cases by due time, oldest first, then by id (keyset on (due time, id)). */
export function selectCases<TB extends QueueTable>(
  db: Executor,
  queue: ReviewQueueDescriptor<TB>,
  s: QueueSelection,
): Promise<QueueCase<TB>[]> {
  const d: QueueNames = queue;
  let query = queueRows(db, d).selectAll();
  if (s.statuses) query = query.where('status', 'in', statusList(d, s.statuses));
  if (s.tenantId) query = query.where('tenant_id', '=', s.tenantId);
  if (s.userId) query = query.where('user_id', '=', s.userId);
  const awaiting = statusList(d, d.awaiting);
  if (s.overdue === true) {
    query = query.where('status', 'in', awaiting).where(d.dueAt, '<=', s.at);
  } else if (s.overdue === false) {
    query = query.where((eb) => eb.or([eb('status', 'not in', awaiting), eb(d.dueAt, '>', s.at)]));
  }
  if (s.after) query = query.where(keyset([d.dueAt, d.id], '>', dueKey(s.after)));
  const assignee = s.assignee;
  if (assignee) {
    query = query.where(({ exists, not, selectFrom }) => {
      const taken = selectFrom('case_assignments')
        .select('subject_id')
        .where('subject', '=', d.queue)
        .whereRef('subject_id', '=', `${d.table}.${d.id}`);
      return assignee === 'unassigned'
        ? not(exists(taken))
        : exists(taken.where('staff_id', '=', assignee.staffId));
    });
  }
  return query.orderBy(d.dueAt).orderBy(d.id).limit(s.limit).execute() as Promise<QueueCase<TB>[]>;
}

/** The cases awaiting review just before and just after one in the queue's order: one keyset step each way. */
export async function neighbourIds(
  db: Executor,
  d: QueueNames,
  at: { dueAt: Date; id: string },
): Promise<{ prev: string | undefined; next: string | undefined }> {
  const columns = [d.dueAt, d.id] as const;
  const base = () => queueRows(db, d).select(d.id).where('status', 'in', statusList(d, d.awaiting)).limit(1);
  const [prev, next] = await Promise.all([
    base()
      .where(keyset(columns, '<', dueKey(at)))
      .orderBy(d.dueAt, 'desc')
      .orderBy(d.id, 'desc')
      .executeTakeFirst(),
    base()
      .where(keyset(columns, '>', dueKey(at)))
      .orderBy(d.dueAt)
      .orderBy(d.id)
      .executeTakeFirst(),
  ]);
  return { prev: prev?.[d.id] as string | undefined, next: next?.[d.id] as string | undefined };
}

/** How many cases await review, and how many of them are due at or before `at`: each counted up to `limit`. */
export async function countAwaiting(
  db: Executor,
  d: QueueNames,
  at: Date,
  limit: number,
): Promise<{ open: number; overdue: number }> {
  const awaiting = queueRows(db, d)
    .select(sql.lit(1).as('one'))
    .where('status', 'in', statusList(d, d.awaiting))
    .limit(limit);
  const [open, overdue] = await Promise.all([
    countRows(db, awaiting),
    countRows(db, awaiting.where(d.dueAt, '<=', at)),
  ]);
  return { open, overdue };
}

/**
 * The queue at `at`, across tenants, in one statement: cases awaiting review, those of them due at or before `at`,
 * and the earliest due time among them (the oldest case's, as every case is due its SLA after it joined).
 */
export async function queueState(
  db: Executor,
  d: QueueNames,
  at: Date,
): Promise<{ open: number; overdue: number; earliestDueAt: Date | null }> {
  const row = await queueRows(db, d)
    .select((eb) => [
      eb.fn.countAll<number>().as('open'),
      eb.fn.countAll<number>().filterWhere(d.dueAt, '<=', at).as('overdue'),
      eb.fn.min<Date | null>(d.dueAt).as('earliest_due_at'),
    ])
    .where('status', 'in', statusList(d, d.awaiting))
    .executeTakeFirstOrThrow();
  return {
    open: Number(row.open),
    overdue: Number(row.overdue),
    earliestDueAt: row.earliest_due_at ? new Date(row.earliest_due_at) : null,
  };
}

/** Whether the tenant's case still awaits review. */
export async function awaitsReview(
  db: Executor,
  d: QueueNames,
  tenantId: string,
  id: string,
): Promise<boolean> {
  const found = await queueRows(db, d)
    .select(d.id)
    .where('tenant_id', '=', tenantId)
    .where(d.id, '=', id)
    .where('status', 'in', statusList(d, d.awaiting))
    .executeTakeFirst();
  return found !== undefined;
}
