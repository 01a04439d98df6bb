import type { Generated } from 'kysely';
import type { Executor } from '../db/database.js';
import type { Timestamp } from '../db/platform-tables.js';
import type { ReviewQueue } from './descriptor.js';

/** Who has taken a case of a queue (one member of staff at a time), and the notes staff wrote on it. */
export interface CaseAssignmentsTable {
  subject: string;
  subject_id: string;
  staff_id: string;
  taken_at: Timestamp;
}

export interface CaseNotesTable {
  note_id: Generated<string>;
  subject: string;
  subject_id: string;
  author: string;
  body: string;
  created_at: Timestamp;
}

export interface CaseWorkTables {
  case_assignments: CaseAssignmentsTable;
  case_notes: CaseNotesTable;
}

/** Takes a case for a member of staff; a case already taken by someone else moves to them. */
export function upsertAssignment(
  tx: Executor,
  row: { subject: ReviewQueue; subject_id: string; staff_id: string; taken_at: Date },
) {
  return tx
    .insertInto('case_assignments')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['subject', 'subject_id']).doUpdateSet({ staff_id: row.staff_id, taken_at: row.taken_at }),
    )
    .execute();
}

/** The assignee of each of these cases, by the name staff know them by. */
export async function assignees(db: Executor, subject: ReviewQueue, subjectIds: readonly string[]) {
  if (subjectIds.length === 0) return new Map<string, { staff_id: string; display_name: string }>();
  const rows = await db
    .selectFrom('case_assignments as c')
    .innerJoin('staff_accounts as a', 'a.staff_id', 'c.staff_id')
    .select(['c.subject_id', 'c.staff_id', 'a.display_name'])
    .where('c.subject', '=', subject)
    .where('c.subject_id', 'in', [...subjectIds])
    .execute();
  return new Map(rows.map((r) => [r.subject_id, { staff_id: r.staff_id, display_name: r.display_name }]));
}

export function insertNote(
  tx: Executor,
  row: { subject: ReviewQueue; subject_id: string; author: string; body: string; created_at: Date },
) {
  return tx.insertInto('case_notes').values(row).returningAll().executeTakeFirstOrThrow();
}

/** A case's notes in the order written, each with its author's name (the author's id when no account has it). */
export function notesOf(db: Executor, subject: ReviewQueue, subjectId: string) {
  return db
    .selectFrom('case_notes as n')
    .leftJoin('staff_accounts as a', 'a.staff_id', 'n.author')
    .select(['n.note_id', 'n.body', 'n.created_at'])
    .select((eb) => eb.fn.coalesce('a.display_name', 'n.author').as('author'))
    .where('n.subject', '=', subject)
    .where('n.subject_id', '=', subjectId)
    .orderBy('n.note_id')
    .execute();
}
