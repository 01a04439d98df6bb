import { sql, type Selectable } from 'kysely';
import { countRows } from './db/count.js';
import type { Executor } from './db/database.js';
import type { Timestamp } from './db/platform-tables.js';

/**
 * What a four-eyes proposal decides on: a sanctions hit, an AML case, a register row's void, a staff account. The
 * subject id is the case id, the exclusion id or the staff id.
 */
export const FOUR_EYES_SUBJECTS = ['sanctions', 'aml', 'exclusion', 'staff'] as const;
export type FourEyesSubject = (typeof FOUR_EYES_SUBJECTS)[number];

export type ProposalStatus = 'pending' | 'approved' | 'rejected';

export interface DecisionProposalsTable {
  proposal_id: string;
  subject: FourEyesSubject;
  subject_id: string;
  /** Null for what belongs to no tenant: a regulator row, a staff account. */
  tenant_id: string | null;
  action: string;
  reason: string;
  proposed_by: string;
  proposed_at: Timestamp;
  status: ProposalStatus;
  decided_by: string | null;
  decided_at: Timestamp | null;
  decision_reason: string | null;
}

export interface FourEyesTables {
  decision_proposals: DecisionProposalsTable;
}

export type DecisionProposal = Selectable<DecisionProposalsTable>;

/**
 * A literal, never a parameter: the partial index decision_proposals_pending (and ON CONFLICT's match to it) must be
 * visible in the generic plan of a prepared statement.
 */
const PENDING = sql.lit<ProposalStatus>('pending');

/** Inserts a pending proposal; undefined when the subject already has one. */
export async function insertProposal(
  tx: Executor,
  row: Omit<DecisionProposal, 'status' | 'decided_by' | 'decided_at' | 'decision_reason'>,
): Promise<DecisionProposal | undefined> {
  return tx
    .insertInto('decision_proposals')
    .values({ ...row, status: 'pending', decided_by: null, decided_at: null, decision_reason: null })
    .onConflict((oc) => oc.columns(['subject', 'subject_id']).where('status', '=', PENDING).doNothing())
    .returningAll()
    .executeTakeFirst();
}

export async function pendingProposal(
  db: Executor,
  subject: FourEyesSubject,
  subjectId: string,
): Promise<DecisionProposal | undefined> {
  return db
    .selectFrom('decision_proposals')
    .selectAll()
    .where('subject', '=', subject)
    .where('subject_id', '=', subjectId)
    .where('status', '=', PENDING)
    .executeTakeFirst();
}

export async function lockPendingProposal(
  tx: Executor,
  subject: FourEyesSubject,
  subjectId: string,
): Promise<DecisionProposal | undefined> {
  return tx
    .selectFrom('decision_proposals')
    .selectAll()
    .where('subject', '=', subject)
    .where('subject_id', '=', subjectId)
    .where('status', '=', PENDING)
    .forUpdate()
    .executeTakeFirst();
}

export async function closeProposal(
  tx: Executor,
  proposalId: string,
  outcome: {
    status: Exclude<ProposalStatus, 'pending'>;
    decided_by: string;
    decided_at: Date;
    decision_reason: string | null;
  },
): Promise<DecisionProposal> {
  return tx
    .updateTable('decision_proposals')
    .set(outcome)
    .where('proposal_id', '=', proposalId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Every proposal of a subject, oldest first: its four-eyes history. */
export async function proposalsOf(
  db: Executor,
  subject: FourEyesSubject,
  subjectId: string,
): Promise<DecisionProposal[]> {
  return db
    .selectFrom('decision_proposals')
    .selectAll()
    .where('subject', '=', subject)
    .where('subject_id', '=', subjectId)
    .orderBy('proposed_at')
    .execute();
}

/** Pending proposals, oldest first: the approvals queue. */
export async function pendingProposals(db: Executor, limit: number): Promise<DecisionProposal[]> {
  return db
    .selectFrom('decision_proposals')
    .selectAll()
    .where('status', '=', PENDING)
    .orderBy('proposed_at')
    .limit(limit)
    .execute();
}

/** The pending proposal of each of these subjects: a list page's badges in one query. */
export async function pendingProposalsFor(
  db: Executor,
  subject: FourEyesSubject,
  subjectIds: readonly string[],
): Promise<Map<string, DecisionProposal>> {
  if (subjectIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('decision_proposals')
    .selectAll()
    .where('subject', '=', subject)
    .where('status', '=', PENDING)
    .where('subject_id', 'in', [...subjectIds])
    .execute();
  return new Map(rows.map((r) => [r.subject_id, r]));
}

/** How many decisions await a second approval, at most `limit` (decision_proposals_open, a partial index). */
export function countPendingProposals(db: Executor, limit: number): Promise<number> {
  return countRows(
    db,
    db
      .selectFrom('decision_proposals')
      .select(sql.lit(1).as('one'))
      // A literal, so a prepared statement's generic plan can use the partial index.
      .where('status', '=', sql.lit('pending'))
      .limit(limit),
  );
}
