import type { Kysely } from 'kysely';
import { executeStatements } from './execute-statements.js';

// Frozen once merged: later changes go in new migrations.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(
    db,
    `
    -- Every kind of player limit follows the deposit limit's lifecycle, in its table (named for the spec's first
    -- kind). Money kinds keep amount_cents in their currency; play_time keeps seconds there, with no currency, and
    -- also takes limit_session (the longest single session).
    alter table deposit_limits add column limit_kind text not null default 'deposit'
      check (limit_kind in ('deposit', 'loss', 'wager', 'play_time'));
    alter table deposit_limits alter column currency drop not null;
    alter table deposit_limits add constraint deposit_limits_currency_of_kind
      check ((limit_kind = 'play_time') = (currency is null));
    alter table deposit_limits drop constraint deposit_limits_limit_type_check;
    alter table deposit_limits add constraint deposit_limits_limit_type_check
      check (limit_type in ('limit_daily', 'limit_weekly', 'limit_monthly')
        or (limit_kind = 'play_time' and limit_type = 'limit_session'));
    drop index deposit_limits_one_active;
    drop index deposit_limits_one_pending;
    create unique index deposit_limits_one_active on deposit_limits (tenant_id, user_id, limit_kind, limit_type)
      where status = 'active';
    create unique index deposit_limits_one_pending on deposit_limits (tenant_id, user_id, limit_kind, limit_type)
      where status = 'pending';

    -- What an allowed wager check holds until the stake's wager event is acknowledged or the hold lapses.
    create table stake_holds (
      tenant_id text not null references tenants (tenant_id),
      hold_id text not null,
      user_id text not null,
      amount_cents bigint not null check (amount_cents > 0),
      currency text not null,
      held_at timestamptz not null,
      expires_at timestamptz not null,
      primary key (tenant_id, hold_id)
    );
    create index stake_holds_user on stake_holds (tenant_id, user_id, held_at);
    create index stake_holds_expiry on stake_holds (expires_at);
    `,
  );
}
