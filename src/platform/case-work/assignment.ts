import { audit } from '../audit.js';
import type { ServiceContext } from '../context.js';
import { requirePerson } from '../four-eyes.js';
import { withTransaction } from '../service-context.js';
import * as store from './assignment.store.js';
import type { ReviewQueue } from './descriptor.js';

/** Who has a case and what staff wrote on it: the working state beside the area's own. */
export async function caseWork(ctx: ServiceContext, subject: ReviewQueue, subjectId: string) {
  const [assigned, notes] = await Promise.all([
    store.assignees(ctx.db, subject, [subjectId]),
    store.notesOf(ctx.db, subject, subjectId),
  ]);
  return {
    assignee: assigned.get(subjectId) ?? null,
    notes: notes.map((n) => ({
      note_id: String(n.note_id),
      author: n.author,
      body: n.body,
      created_at: n.created_at.toISOString(),
    })),
  };
}

/** The assignee of each of these cases of a queue: a listing's column, in one read. */
export function assigneesOf(
  ctx: Pick<ServiceContext, 'db'>,
  subject: ReviewQueue,
  subjectIds: readonly string[],
) {
  return store.assignees(ctx.db, subject, subjectIds);
}

/** "Take": the case is assigned to the member of staff acting (a case is taken by a person, never by the token). */
export function takeCase(ctx: ServiceContext, subject: ReviewQueue, subjectId: string) {
  const staffId = requirePerson(ctx);
  return withTransaction(ctx, async (tx, ctx) => {
    await store.upsertAssignment(tx, {
      subject,
      subject_id: subjectId,
      staff_id: staffId,
      taken_at: ctx.clock.now(),
    });
    await audit(tx, ctx, 'case.taken', { subject, case_id: subjectId });
    return caseWork(ctx, subject, subjectId);
  });
}

export function addNote(ctx: ServiceContext, subject: ReviewQueue, subjectId: string, body: string) {
  requirePerson(ctx);
  return withTransaction(ctx, async (tx, ctx) => {
    await store.insertNote(tx, {
      subject,
      subject_id: subjectId,
      author: ctx.actor,
      body,
      created_at: ctx.clock.now(),
    });
    await audit(tx, ctx, 'case.note_added', { subject, case_id: subjectId });
    return caseWork(ctx, subject, subjectId);
  });
}
