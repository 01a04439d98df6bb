import type { Kysely } from 'kysely';
import { executeStatements } from './execute-statements.js';

// Frozen once merged: later changes go in new migrations.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(
    db,
    `
    -- The register matches emails in a canonical form (contact.ts canonicalEmail: no +tag on any domain, no dots
    -- at providers that ignore them, googlemail.com as gmail.com); the same rule, for the rows already stored.
    alter table exclusions add column email_canonical text;
    update exclusions set email_canonical =
      case when split_part(email, '@', 2) in ('gmail.com', 'googlemail.com')
        then coalesce(nullif(replace(split_part(split_part(email, '@', 1), '+', 1), '.', ''), ''),
                      split_part(email, '@', 1)) || '@gmail.com'
        else coalesce(nullif(split_part(split_part(email, '@', 1), '+', 1), ''), split_part(email, '@', 1))
             || '@' || split_part(email, '@', 2)
      end
    where email is not null;
    drop index exclusions_email;
    create index exclusions_email on exclusions (environment, email_canonical) where status = 'active';

    -- Keyed hashes of each row's contacts (filled by the service: the key is not the database's), to find the
    -- tenants that have shown a contact without ever storing what they showed.
    alter table exclusions add column email_hash text, add column phone_hash text;
    create index exclusions_email_hash on exclusions (email_hash) where status = 'active';
    create index exclusions_phone_hash on exclusions (phone_hash) where status = 'active';

    -- Which contacts each tenant has shown the service (checked, registered, sent with a KYC start), as keyed
    -- hashes: what decides which tenants are told of other operators' and the regulator's rows.
    -- Written on the live check's path for every new contact: one index (by contact, then tenant, which also
    -- serves "has this tenant shown it") and no foreign key (tenants are never deleted), each costing every insert.
    create table contact_sightings (
      contact_hash text not null,
      tenant_id text not null,
      first_seen_at timestamptz not null,
      primary key (contact_hash, tenant_id)
    );

    -- A row registered in error is voided by the staff: it stops matching, and is kept with who voided it and why.
    alter table exclusions drop constraint exclusions_status_check;
    alter table exclusions add constraint exclusions_status_check check (status in ('active', 'expired', 'voided'));
    alter table exclusions
      add column voided_at timestamptz,
      add column void_reason text,
      add column voided_by text,
      add column void_confirmed_by text;
    -- Staff actions on what belongs to no tenant (voiding a regulator row) are audited too: with no tenant.
    alter table audit_log alter column tenant_id drop not null;
    -- Voiding a permanent exclusion waits for a second member of staff: the first one's proposal.
    create table exclusion_void_proposals (
      exclusion_id text primary key references exclusions (exclusion_id),
      reason text not null,
      proposed_by text not null,
      proposed_at timestamptz not null
    );
  `,
  );
}
