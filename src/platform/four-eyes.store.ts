import { sql, type Selectable } from 'kysely';
import type { Executor } from './db/database.js';
import type { Timestamp } from './db/platform-tables.js';
import type { ReviewQueue } from './review-deadlines.js';

export type ProposalStatus = 'pending' | 'approved' | 'rejected';

export interface DecisionProposalsTable {
  proposal_id: string;
  subject: ReviewQueue;
  subject_id: string;
  tenant_id: string;
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

/** Inserts a pending proposal; undefined when the case already has one. */
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
  subject: ReviewQueue,
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
  subject: ReviewQueue,
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

/** Every proposal of a case, oldest first: the case page's four-eyes history. */
export async function proposalsOf(
  db: Executor,
  subject: ReviewQueue,
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
