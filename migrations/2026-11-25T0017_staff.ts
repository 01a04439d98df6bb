import type { Kysely } from 'kysely';
import { executeStatements } from './execute-statements.js';

// Frozen once merged: later changes go in new migrations.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(
    db,
    `
    -- The service's compliance staff (docs/console.md). An account is 'invited' until its holder sets a password
    -- (and, for a role that decides cases, a second factor) through the one-time setup link.
    create table staff_accounts (
      staff_id text primary key,
      email text not null unique,
      display_name text not null,
      role text not null check (role in ('admin', 'supervisor', 'reviewer', 'auditor')),
      status text not null check (status in ('invited', 'active', 'disabled')),
      -- scrypt, with its parameters and salt: scrypt$N$r$p$salt$hash (base64).
      password_hash text,
      -- The TOTP secret, encrypted under the service's secrets key: checking a code needs it back.
      totp_secret text,
      -- The last accepted TOTP time step: a code is accepted once.
      totp_last_step bigint,
      failed_logins integer not null default 0,
      locked_until timestamptz,
      created_at timestamptz not null,
      created_by text not null,
      disabled_at timestamptz,
      disabled_by text
    );

    -- One-time links to set a password; only the hash of the link's token is kept.
    create table staff_setup_links (
      token_hash text primary key,
      staff_id text not null references staff_accounts (staff_id),
      created_at timestamptz not null,
      expires_at timestamptz not null,
      used_at timestamptz
    );
    create index staff_setup_links_staff on staff_setup_links (staff_id);

    -- Console sessions; only the hash of the cookie's session id is kept. A session ends after 30 idle minutes on
    -- the service clock, at sign-out, or when its account is disabled.
    create table staff_sessions (
      session_hash text primary key,
      staff_id text not null references staff_accounts (staff_id),
      csrf_token text not null,
      created_at timestamptz not null,
      last_seen_at timestamptz not null,
      ended_at timestamptz
    );
    create index staff_sessions_staff on staff_sessions (staff_id) where ended_at is null;

    -- Who took a case from a queue ('take'): one assignee a case.
    create table case_assignments (
      subject text not null,
      subject_id text not null,
      staff_id text not null references staff_accounts (staff_id),
      taken_at timestamptz not null,
      primary key (subject, subject_id)
    );
    create index case_assignments_staff on case_assignments (staff_id);

    -- Staff notes on a case, in the order written.
    create table case_notes (
      note_id bigint generated always as identity primary key,
      subject text not null,
      subject_id text not null,
      author text not null,
      body text not null,
      created_at timestamptz not null
    );
    create index case_notes_subject on case_notes (subject, subject_id, note_id);

    -- Four eyes: a decision that takes effect only once a second member of staff approves it. One pending
    -- proposal a case at a time.
    create table decision_proposals (
      proposal_id text primary key,
      subject text not null,
      subject_id text not null,
      tenant_id text not null,
      action text not null,
      reason text not null,
      proposed_by text not null,
      proposed_at timestamptz not null,
      status text not null check (status in ('pending', 'approved', 'rejected')),
      decided_by text,
      decided_at timestamptz,
      decision_reason text
    );
    create unique index decision_proposals_pending on decision_proposals (subject, subject_id) where status = 'pending';
    create index decision_proposals_open on decision_proposals (proposed_at) where status = 'pending';

    -- The console's reads at volume: the KYC and AML queues (their older indexes keep decided cases too), failed
    -- deliveries by tenant, the player page's events and exclusions, and the audit log searched by actor, action
    -- or time.
    create index kyc_checks_pending_review on kyc_checks (review_due_at, kyc_check_id) where status = 'pending_review';
    -- The AML queue walks open cases only, however long the decided history grows.
    create index aml_cases_awaiting_due on aml_cases (due_at, case_id) where status in ('under_review', 'held');
    create index webhook_attempts_failed on webhook_attempts (attempted_at, tenant_id) where outcome <> 'delivered';
    create index events_user on events (tenant_id, ((payload::jsonb -> 'data' ->> 'user_id')), created_at, event_id);
    create index exclusions_user on exclusions (tenant_id, user_id, effective_from) where tenant_id is not null;
    create index audit_log_actor on audit_log (actor, audit_id);
    create index audit_log_action on audit_log (action, audit_id);
    create index audit_log_occurred_at on audit_log (occurred_at, audit_id);
    `,
  );
}
