import { audit } from '../../platform/audit.js';
import type { ServiceContext } from '../../platform/context.js';
import { requirePerson } from '../../platform/four-eyes.js';
import type { ReviewQueue } from '../../platform/review-deadlines.js';
import { withTransaction } from '../../platform/service-context.js';
import * as store from '../staff.store.js';

/** Who has a case and what staff wrote on it: the console's working state beside the area's own. */
export async function caseWork(ctx: ServiceContext, subject: ReviewQueue, subjectId: string) {
  const [assigned, notes] = await Promise.all([
    store.assignees(ctx.db, subject, [subjectId]),
    store.notesOf(ctx.db, subject, subjectId),
  ]);
  const authors = await store.displayNames(
    ctx.db,
    notes.map((n) => n.author),
  );
  return {
    assignee: assigned.get(subjectId) ?? null,
    notes: notes.map((n) => ({
      note_id: String(n.note_id),
      author: authors.get(n.author) ?? n.author,
      body: n.body,
      created_at: n.created_at.toISOString(),
    })),
  };
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
