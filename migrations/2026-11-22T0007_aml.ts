import type { Kysely } from 'kysely';
import { executeStatements } from './execute-statements.js';

// Frozen once merged: later changes go in new migrations.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(
    db,
    `
    -- Every AML transaction event, stored before it is acknowledged. evaluated_at null = still queued.
    create table aml_events (
      event_id text primary key,
      tenant_id text not null references tenants (tenant_id),
      user_id text not null,
      event_type text not null
        check (event_type in ('deposit', 'withdrawal', 'wager', 'settlement', 'login', 'account_update')),
      transaction_id text not null,
      amount_cents bigint not null check (amount_cents >= 0),
      currency text not null,
      usd_cents bigint not null check (usd_cents >= 0),
      payment_method text,
      fingerprint text,
      metadata jsonb not null default '{}',
      occurred_at timestamptz not null,
      received_at timestamptz not null,
      request_hash text not null,
      evaluated_at timestamptz,
      unique (tenant_id, transaction_id)
    );
    -- Every rule window is one range scan of this index; counts and sums need no heap access.
    create index aml_events_user_time on aml_events (tenant_id, user_id, occurred_at) include (event_type, usd_cents);
    -- R-006: the distinct users of a payment method fingerprint.
    create index aml_events_fingerprint on aml_events (tenant_id, fingerprint, user_id) where fingerprint is not null;
    -- R-006 at a screen: the distinct fingerprints of one user (a skip scan, one probe per fingerprint).
    create index aml_events_user_fingerprint on aml_events (tenant_id, user_id, fingerprint) where fingerprint is not null;
    -- The evaluation queue: small, because evaluated rows leave it.
    create index aml_events_unevaluated on aml_events (received_at) where evaluated_at is null;

    -- Review cases. context holds the rules' findings and is shown only in the back office (tipping-off rule).
    create table aml_cases (
      case_id text primary key,
      tenant_id text not null references tenants (tenant_id),
      user_id text not null,
      status text not null check (status in ('under_review', 'held', 'escalated', 'cleared', 'frozen')),
      source text not null check (source in ('realtime', 'async')),
      withdrawal_id text,
      rules_triggered jsonb not null,
      risk_score integer not null check (risk_score between 0 and 100),
      transaction_ids jsonb not null,
      context jsonb not null,
      opened_at timestamptz not null,
      updated_at timestamptz not null,
      decided_at timestamptz,
      reviewer text
    );
    create index aml_cases_user on aml_cases (tenant_id, user_id, opened_at);
    create index aml_cases_status on aml_cases (status, opened_at);
    -- A user has at most one open case from asynchronous monitoring; further trips add to it.
    create unique index aml_cases_one_open_async on aml_cases (tenant_id, user_id)
      where source = 'async' and status in ('under_review', 'held', 'escalated');

    create table aml_screens (
      tenant_id text not null references tenants (tenant_id),
      withdrawal_id text not null,
      user_id text not null,
      amount_cents bigint not null,
      currency text not null,
      usd_cents bigint not null,
      payment_method text not null,
      destination_country text not null,
      decision text not null check (decision in ('allow', 'hold', 'reject')),
      risk_score integer not null,
      rules_triggered jsonb not null,
      case_id text,
      request_hash text not null,
      screened_at timestamptz not null,
      primary key (tenant_id, withdrawal_id)
    );

    -- Patterns already reported per user, so a repeated pattern does not open a case on every further event.
    create table aml_rule_trips (
      tenant_id text not null,
      user_id text not null,
      rule_code text not null,
      pattern_key text not null,
      case_id text not null,
      tripped_at timestamptz not null,
      primary key (tenant_id, user_id, rule_code, pattern_key)
    );

    create table aml_settings (
      tenant_id text primary key references tenants (tenant_id),
      r009_window_seconds integer not null check (r009_window_seconds > 0),
      updated_at timestamptz not null
    );
  `,
  );
}
