import type { Executor } from '../../platform/db/database.js';
import { identities } from '../staff.store.js';

/** The staff members behind the given actors; actors that are not staff ids (the token, the service) are left out. */
export async function staffIdentities(db: Executor, actors: readonly string[]) {
  const rows = await identities(
    db,
    actors.filter((a) => a.startsWith('stf_')),
  );
  return new Map(rows.map((r) => [r.staff_id, r]));
}
