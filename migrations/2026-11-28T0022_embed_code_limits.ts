import type { Kysely } from 'kysely';
import { executeStatements } from './execute-statements.js';

// Frozen once merged: later changes go in new migrations.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(
    db,
    `
    -- Whether the code's mail went out. A code asked for past the service-wide ceiling of one email is issued as
    -- usual (the asking tenant cannot tell) but not mailed; the ceiling counts the mailed ones, the per-tenant limit
    -- all of a tenant's. Every code before this migration was mailed.
    alter table embed_codes add column mailed boolean not null default true;
    alter table embed_codes alter column mailed drop default;

    -- An alert that a condition raises at most once per key (the embed-code ceiling: a tenant and an hour); alerts
    -- without a key are raised every time, as before. The unique index makes "at most once" hold across processes.
    alter table alerts add column dedupe_key text;
    create unique index alerts_dedupe_key on alerts (dedupe_key) where dedupe_key is not null;
    `,
  );
}
