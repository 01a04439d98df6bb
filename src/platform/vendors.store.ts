import { sql } from 'kysely';
import type { Executor } from './db/database.js';
import type { VendorArea } from './db/platform-tables.js';

/** Whether some live tenant has this area cut over to its production vendor. */
export async function liveTenantCutOverExists(db: Executor, area: VendorArea): Promise<boolean> {
  const row = await db
    .selectFrom('tenants')
    .select(sql<number>`1`.as('one'))
    .where('environment', '=', 'live')
    .where(sql<boolean>`cutover_areas @> ${JSON.stringify([area])}::jsonb`)
    .executeTakeFirst();
  return row !== undefined;
}

/** The areas some active live tenant is cut over for (a suspended tenant is refused before any vendor). */
export async function liveCutOverAreas(db: Executor): Promise<VendorArea[]> {
  const rows = await db
    .selectFrom('tenants')
    .select(sql<VendorArea>`jsonb_array_elements_text(cutover_areas)`.as('area'))
    .distinct()
    .where('environment', '=', 'live')
    .where('status', '=', 'active')
    .execute();
  return rows.map((row) => row.area);
}
