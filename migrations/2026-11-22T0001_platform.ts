import type { Kysely } from 'kysely';
import { executeStatements } from './execute-statements.js';

// Frozen once merged: later changes go in new migrations.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(
    db,
    `
    create table tenants (
      tenant_id text primary key,
      name text not null,
      environment text not null check (environment in ('sandbox', 'live')),
      status text not null default 'active' check (status in ('active', 'suspended')),
      signing_secret text not null,
      webhook_url text,
      cutover_areas jsonb not null default '[]',
      rate_limits jsonb not null default '{}',
      created_at timestamptz not null,
      updated_at timestamptz not null
    );

    create table api_keys (
      key_id text primary key,
      tenant_id text not null references tenants (tenant_id),
      key_prefix text not null unique,
      key_hash text not null unique,
      role text not null check (role in ('standard', 'admin')),
      created_at timestamptz not null,
      revoked_at timestamptz
    );
    create index api_keys_tenant on api_keys (tenant_id);

    create table audit_log (
      audit_id bigint generated always as identity primary key,
      tenant_id text not null,
      occurred_at timestamptz not null,
      actor text not null,
      action text not null,
      request_id text,
      details jsonb not null default '{}'
    );
    create index audit_log_tenant on audit_log (tenant_id, audit_id);

    create table security_log (
      security_log_id bigint generated always as identity primary key,
      occurred_at timestamptz not null,
      reason text not null,
      key_prefix text,
      request_id text,
      remote_ip text
    );

    create table events (
      event_id text primary key,
      tenant_id text not null references tenants (tenant_id),
      event text not null,
      -- The envelope exactly as sent: every attempt signs and delivers the same bytes.
      payload text not null,
      created_at timestamptz not null,
      delivery_status text not null check (delivery_status in ('pending', 'delivered', 'failed', 'no_destination')),
      attempt_count integer not null default 0,
      next_attempt_at timestamptz,
      claim_token text,
      claimed_until timestamptz,
      delivered_at timestamptz
    );
    create index events_due on events (next_attempt_at) where delivery_status = 'pending';
    create index events_tenant on events (tenant_id, created_at);

    create table webhook_attempts (
      attempt_id bigint generated always as identity primary key,
      event_id text not null references events (event_id),
      tenant_id text not null,
      attempt_number integer not null,
      attempted_at timestamptz not null,
      url text not null,
      status_code integer,
      latency_ms integer not null,
      error text,
      outcome text not null check (outcome in ('delivered', 'retry_scheduled', 'failed'))
    );
    create index webhook_attempts_tenant on webhook_attempts (tenant_id, attempt_id);
    create index webhook_attempts_event on webhook_attempts (event_id);

    create table scheduled_jobs (
      job_id text primary key,
      kind text not null,
      subject_id text not null,
      tenant_id text,
      due_at timestamptz not null,
      payload jsonb not null default '{}',
      attempts integer not null default 0,
      last_error text,
      unique (kind, subject_id)
    );
    create index scheduled_jobs_due on scheduled_jobs (due_at);

    create table service_settings (
      name text primary key,
      value text not null
    );
  `,
  );
}
