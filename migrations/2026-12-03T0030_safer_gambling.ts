import type { Kysely } from 'kysely';
import { executeStatements } from './execute-statements.js';

// Frozen once merged: later changes go in new migrations.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(
    db,
    `
    -- A tenant's safer-gambling settings (docs/safer-gambling.md): its time zone (SG-003's night), marker threshold
    -- overrides within the catalogue's bounds, its level policy and its financial-check profile. Absent: defaults.
    create table sg_tenant_settings (
      tenant_id text primary key references tenants (tenant_id),
      time_zone text not null default 'UTC',
      marker_overrides jsonb not null default '{}',
      policy jsonb not null default '{}',
      financial_profile jsonb not null default '{}',
      updated_at timestamptz not null,
      updated_by text not null
    );

    -- Every trip of a marker, as evaluated: the evidence and the player's timeline. Never updated.
    create table sg_marker_trips (
      trip_id text primary key,
      tenant_id text not null references tenants (tenant_id),
      user_id text not null,
      code text not null,
      level text not null check (level in ('low', 'medium', 'high')),
      -- The moment of the player's history that tripped it (event time), and when the service recorded it.
      observed_at timestamptz not null,
      tripped_at timestamptz not null,
      measured_value bigint not null,
      threshold bigint not null,
      details jsonb not null,
      catalogue_version text not null,
      -- What it was evaluated for: an AML event's id, a limit's id, a play session's id.
      source text not null
    );
    create index sg_marker_trips_user on sg_marker_trips (tenant_id, user_id, tripped_at);
    create index sg_marker_trips_period on sg_marker_trips (tenant_id, tripped_at);

    -- Each marker's state for a player: active until active_until (30 days after it last tripped), or reviewed by an
    -- interaction (quiet until review_quiet_until unless it trips with more than reviewed_value).
    create table sg_player_markers (
      tenant_id text not null references tenants (tenant_id),
      user_id text not null,
      code text not null,
      level text not null check (level in ('low', 'medium', 'high')),
      first_tripped_at timestamptz not null,
      last_tripped_at timestamptz not null,
      measured_value bigint not null,
      threshold bigint not null,
      active_until timestamptz,
      reviewed_at timestamptz,
      reviewed_value bigint,
      review_quiet_until timestamptz,
      reviewed_by_interaction_id text,
      primary key (tenant_id, user_id, code)
    );

    -- A player's safer-gambling standing: the level and the interaction it calls for.
    create table sg_players (
      tenant_id text not null references tenants (tenant_id),
      user_id text not null,
      risk_level text not null check (risk_level in ('none', 'low', 'medium', 'high')),
      level_changed_at timestamptz not null,
      -- An interaction the operator owes: required at, due at (null when none is due), overdue webhook sent at.
      interaction_required_at timestamptz,
      interaction_due_at timestamptz,
      interaction_overdue_at timestamptz,
      -- The player contested a finding (an interaction's outcome): flagged for the service's staff until cleared.
      contested_at timestamptz,
      contested_interaction_id text,
      updated_at timestamptz not null,
      primary key (tenant_id, user_id)
    );
    -- The staff's queue: overdue or contested, oldest first.
    create index sg_players_follow_up on sg_players (coalesce(interaction_overdue_at, contested_at))
      where interaction_overdue_at is not null or contested_at is not null;

    -- What the operator did (POST /v1/players/{user_id}/interactions).
    create table sg_interactions (
      tenant_id text not null references tenants (tenant_id),
      interaction_id text not null,
      user_id text not null,
      kind text not null check (kind in ('message', 'email', 'call', 'limit_prompt', 'account_review')),
      outcome text not null check (outcome in ('no_concern', 'limits_set', 'time_out', 'self_excluded',
        'account_closed', 'no_response', 'contested')),
      occurred_at timestamptz not null,
      notes text,
      recorded_at timestamptz not null,
      -- The markers it reviewed ([{code, measured_value}]), and whether it settled a due interaction.
      reviewed_markers jsonb not null,
      settled_due_at timestamptz,
      request_hash text not null,
      primary key (tenant_id, interaction_id)
    );
    create index sg_interactions_user on sg_interactions (tenant_id, user_id, occurred_at);
    create index sg_interactions_period on sg_interactions (tenant_id, recorded_at);

    -- Each financial check called for (player.financial_check_required): once per player, level and window while the
    -- window's span runs from the last one.
    create table sg_financial_checks (
      check_id text primary key,
      tenant_id text not null references tenants (tenant_id),
      user_id text not null,
      level text not null check (level in ('light', 'enhanced')),
      window_name text not null,
      net_deposits_cents bigint not null,
      currency text not null,
      threshold_cents bigint not null,
      observed_at timestamptz not null,
      called_at timestamptz not null,
      source text not null
    );
    create index sg_financial_checks_user on sg_financial_checks (tenant_id, user_id, level, window_name, called_at);
    create index sg_financial_checks_period on sg_financial_checks (tenant_id, called_at);
    `,
  );
}
