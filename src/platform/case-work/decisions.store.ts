import type { Executor } from '../db/database.js';

/** The opaque reference by which a tenant's webhook names a member of staff. */
export async function reviewerRefOf(db: Executor, staffId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('staff_accounts')
    .select('reviewer_ref')
    .where('staff_id', '=', staffId)
    .executeTakeFirst();
  return row?.reviewer_ref;
}
