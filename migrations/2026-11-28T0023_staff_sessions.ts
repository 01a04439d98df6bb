import type { Kysely } from 'kysely';
import { executeStatements } from './execute-statements.js';

// Frozen once merged: later changes go in new migrations.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(
    db,
    `
    -- Sign-in attempts per throttle key (the email tried, or the email and the client address), reserved before any
    -- password hash is computed: a growing wait between failures replaces the account lock, which let strangers keep
    -- a known email locked. Keyed by a hash, so the emails strangers type are not kept; rows go a day after their
    -- last attempt.
    create table staff_sign_in_throttle (
      key_hash text primary key,
      failures integer not null,
      not_before timestamptz not null,
      last_attempt_at timestamptz not null
    );
    create index staff_sign_in_throttle_last_attempt on staff_sign_in_throttle (last_attempt_at);

    -- The lock and its counter are replaced by the table above.
    alter table staff_accounts drop column failed_logins;
    alter table staff_accounts drop column locked_until;
    `,
  );
}
