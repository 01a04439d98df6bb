import type { Kysely } from 'kysely';
import { executeStatements } from './execute-statements.js';

// Frozen once merged: later changes go in new migrations.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(
    db,
    `
    -- Where a row of the register came in: the tenant API, a hosted embed, or the regulator's list. The reports count
    -- registrations by it; matching never looks at it.
    alter table exclusions add column channel text;
    update exclusions set channel = case when origin = 'regulator' then 'regulator' else 'api' end;
    alter table exclusions alter column channel set not null,
      add constraint exclusions_channel check (channel in ('api', 'embed', 'regulator')),
      add constraint exclusions_channel_origin check ((channel = 'regulator') = (origin = 'regulator'));

    -- The origins allowed to frame a tenant's hosted embeds (CSP frame-ancestors); none: embeds cannot be framed.
    alter table tenants add column embed_origins jsonb not null default '[]';

    -- A hosted embed's session (docs/embeds.md): created by the operator's server, used by the player's page through
    -- an unguessable token of which only the hash is kept. Deleted a day after it expires, with its codes.
    create table embed_sessions (
      embed_session_id text primary key,
      token_hash text not null unique,
      tenant_id text not null references tenants (tenant_id),
      kind text not null check (kind in ('self_exclusion', 'deposit_limits')),
      user_id text not null,
      email text,
      phone text,
      currency text,
      locale text not null,
      return_url text,
      operator_notice text,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      -- Set when the session's exclusion was created: the session is spent.
      completed_at timestamptz,
      exclusion_id text,
      check (kind <> 'self_exclusion' or email is not null)
    );
    create index embed_sessions_expiry on embed_sessions (expires_at);

    -- The emailed confirmation codes of self-exclusion embeds: only a keyed hash of each code is kept, bound to its
    -- session and to the duration chosen when it was requested. At most one live code a session.
    create table embed_codes (
      code_id text primary key,
      embed_session_id text not null references embed_sessions (embed_session_id) on delete cascade,
      -- A keyed hash of the session's canonical email: the hourly limit of codes per email counts across sessions.
      email_hash text not null,
      code_hash text not null,
      duration text not null,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      wrong_attempts integer not null default 0,
      status text not null check (status in ('live', 'used', 'locked', 'replaced')),
      ended_at timestamptz
    );
    create unique index embed_codes_live on embed_codes (embed_session_id) where status = 'live';
    create index embed_codes_email on embed_codes (email_hash, created_at);

    -- The mail outbox: written in the transaction that decides to send, delivered by the workers over SMTP with
    -- retries, or kept here when no SMTP server is configured. Deleted 7 days after it was written.
    create table mail_outbox (
      mail_id text primary key,
      tenant_id text,
      purpose text not null,
      to_address text not null,
      subject text not null,
      text_body text not null,
      html_body text not null,
      created_at timestamptz not null,
      status text not null check (status in ('pending', 'sent', 'failed')),
      attempts integer not null default 0,
      next_attempt_at timestamptz,
      claim_token text,
      claimed_until timestamptz,
      sent_at timestamptz,
      last_error text
    );
    create index mail_outbox_due on mail_outbox (next_attempt_at) where status = 'pending';
    create index mail_outbox_created on mail_outbox (created_at, mail_id);
    `,
  );
}
