import type { Executor } from '../../platform/db/database.js';
import { identities, reviewerRefOf } from '../staff.store.js';

/** The staff members behind the given actors; actors that are not staff ids (the token, the service) are left out. */
export async function staffIdentities(db: Executor, actors: readonly string[]) {
  const rows = await identities(
    db,
    actors.filter((a) => a.startsWith('stf_')),
  );
  return new Map(rows.map((r) => [r.staff_id, r]));
}

/**
 * How a tenant's webhook names the member of staff who decided: an opaque reference, stable for the account, that
 * says nothing of who they are (not their staff id, name or email); the staff resolve it in the console. An actor
 * that is not a member of staff (the service's own jobs) is named as it is.
 */
export async function reviewerReference(db: Executor, actor: string): Promise<string> {
  if (!actor.startsWith('stf_')) return actor;
  const ref = await reviewerRefOf(db, actor);
  if (!ref) throw new Error(`No staff account ${actor} to name in a webhook`);
  return ref;
}
