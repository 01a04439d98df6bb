import type { Kysely } from 'kysely';
import { executeStatements } from './execute-statements.js';

// Frozen once merged: later changes go in new migrations.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(
    db,
    `
    -- A player's play session as the operator reports it (docs/player-protection.md, "Play sessions and reality
    -- checks"), under the operator's own session_id (the one its AML events carry in metadata.session_id). A refused
    -- session is stored too, so a repeat answers the same; it never counts as played time.
    create table play_sessions (
      play_session_id text primary key,
      tenant_id text not null references tenants (tenant_id),
      session_id text not null,
      user_id text not null,
      started_at timestamptz not null,
      created_at timestamptz not null,
      allowed boolean not null,
      -- Why a session was refused: timed_out, self_excluded or play_time_exhausted; null when allowed.
      reason text check (reason in ('timed_out', 'self_excluded', 'play_time_exhausted')),
      -- When the first play_time limit in force at its start runs out, and which; null when none does.
      ends_at timestamptz,
      limit_type text,
      reality_check_interval_seconds integer,
      ended_at timestamptz check (ended_at >= started_at),
      -- Where its played time stops counting: its end, or its bound for a session never ended (its start for a
      -- refused one, which counts nothing).
      counted_until timestamptz not null,
      -- When play_session.limit_reached was sent (once).
      limit_reached_at timestamptz,
      check ((reason is null) = allowed),
      unique (tenant_id, session_id)
    );
    -- The play_time windows: a player's sessions still counting after a window's start.
    create index play_sessions_user on play_sessions (tenant_id, user_id, counted_until);

    -- A player's own reality-check interval; a player without a row has the tenant's default.
    create table player_reality_checks (
      tenant_id text not null references tenants (tenant_id),
      user_id text not null,
      interval_seconds integer not null check (interval_seconds between 300 and 7200),
      updated_at timestamptz not null,
      primary key (tenant_id, user_id)
    );

    -- A tenant's default reality-check interval, set by the staff; a tenant without a row has the service's.
    create table tenant_reality_checks (
      tenant_id text primary key references tenants (tenant_id),
      default_interval_seconds integer not null check (default_interval_seconds between 300 and 7200),
      updated_at timestamptz not null
    );
    `,
  );
}
