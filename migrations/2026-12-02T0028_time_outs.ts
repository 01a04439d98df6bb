import type { Kysely } from 'kysely';
import { executeStatements } from './execute-statements.js';

// Frozen once merged: later changes go in new migrations.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(
    db,
    `
    -- A player's time-out ("take a break", docs/player-protection.md): the tenant's own, never shared. Each row is
    -- one request that took effect: a fresh time-out, or an extension that supersedes the one in force (which keeps
    -- its row, so the history of a player's breaks is the rows themselves).
    create table time_outs (
      time_out_id text primary key,
      tenant_id text not null references tenants (tenant_id),
      user_id text not null,
      duration text not null check (duration in ('duration_24h', 'duration_7d', 'duration_30d', 'duration_6w')),
      reason text not null,
      initiated_at timestamptz,
      channel text not null check (channel in ('api', 'embed')),
      starts_at timestamptz not null,
      ends_at timestamptz not null check (ends_at > starts_at),
      -- active: in force until ends_at; superseded: replaced by a longer one; ended: ends_at has passed.
      status text not null check (status in ('active', 'superseded', 'ended')),
      -- The time-out this one extended (superseded when this one started); null for a fresh one.
      extends_time_out_id text references time_outs (time_out_id),
      -- When it left 'active': the extension's start, or its ends_at.
      left_active_at timestamptz
    );
    -- At most one time-out in force per player of a tenant.
    create unique index time_outs_one_active on time_outs (tenant_id, user_id) where status = 'active';
    -- A player's history, newest first.
    create index time_outs_user on time_outs (tenant_id, user_id, starts_at);
    -- The self-limitation report's pages: started and ended in a period.
    create index time_outs_starts on time_outs (tenant_id, starts_at, time_out_id);
    create index time_outs_ends on time_outs (tenant_id, ends_at, time_out_id) where status <> 'superseded';
    `,
  );
}
