import type { Selectable } from 'kysely';
import type { DB } from '../db/schema.js';

/**
 * What an area says about its review queue: the table its cases are in, the columns holding a case's id, due time and
 * time of leaving review, and which statuses still wait on a reviewer. The queue's statements (listing, cursor,
 * overdue and assignee filters, a case's neighbours, counts, the alerts' check) are built from it in the platform,
 * so a new area gets a queue by writing a descriptor, not SQL.
 */

/** Every review queue by name: the subject of its cases' assignments, notes, alerts and four-eyes proposals. */
export const REVIEW_QUEUES = ['sanctions', 'aml', 'kyc', 'safer_gambling'] as const;
export type ReviewQueue = (typeof REVIEW_QUEUES)[number];

/** A case belongs to a tenant's user and has a status, under these column names in every queue's table. */
interface CaseColumns {
  tenant_id: string;
  user_id: string;
  status: string;
}

/** The tables a queue can be kept in. */
export type QueueTable = {
  [TB in keyof DB]: Selectable<DB[TB]> extends CaseColumns ? TB : never;
}[keyof DB];

/** A case of the queue kept in TB: a row of its table. */
export type QueueCase<TB extends QueueTable> = Selectable<DB[TB]>;

type Column<TB extends QueueTable> = keyof DB[TB] & string;

export interface ReviewQueueDescriptor<TB extends QueueTable> {
  queue: ReviewQueue;
  /** How an alert names one of its cases: "AML case". */
  label: string;
  table: TB;
  /** The case's id and its due time: the queue's order (oldest due first, then id) and its keyset cursor. */
  id: Column<TB>;
  dueAt: Column<TB>;
  /** When the case left review: one that left it at or after its due time missed its SLA. */
  decidedAt: Column<TB>;
  /** The review SLA: a case is due this many seconds after it joined the queue (its age is read from its due time). */
  slaSeconds: number;
  /** Every status of a case, in the order the console's filter offers them. */
  statuses: readonly string[];
  /** The statuses in which a case waits on a reviewer: the open queue, its overdue cases, a case's neighbours. */
  awaiting: readonly string[];
  /** A row joins the queue when its due time is set (a KYC check reaching pending_review); until then it is null. */
  dueAtMayBeNull?: true;
}

/** One queue's descriptor, whatever its table. */
export type AnyReviewQueue = { [TB in QueueTable]: ReviewQueueDescriptor<TB> }[QueueTable];

/** A queue's assignee filter: the cases a member of staff took, or the cases nobody took. */
export type AssigneeFilter = { staffId: string } | 'unassigned';
