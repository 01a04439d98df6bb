import { sql } from 'kysely';
import type { Executor } from './db/database.js';

/** Stores a service setting unless it is set already. */
export async function insertSettingIfAbsent(db: Executor, name: string, value: string): Promise<void> {
  await db
    .insertInto('service_settings')
    .values({ name, value })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
}

export async function readSetting(db: Executor, name: string): Promise<string> {
  const row = await db
    .selectFrom('service_settings')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return row.value;
}

/** Moves a setting that holds an ISO instant on by `seconds`, in the database, and returns the new instant. */
export async function advanceInstantSetting(db: Executor, name: string, seconds: number): Promise<string> {
  const row = await db
    .updateTable('service_settings')
    .set({
      value: sql<string>`to_char((value::timestamptz + make_interval(secs => ${seconds})) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
    })
    .where('name', '=', name)
    .returning('value')
    .executeTakeFirstOrThrow();
  return row.value;
}
