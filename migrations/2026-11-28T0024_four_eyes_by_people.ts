import type { Kysely } from 'kysely';
import { executeStatements } from './execute-statements.js';

// Frozen once merged: later changes go in new migrations.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(
    db,
    `
    -- One four-eyes table for every decision that needs a second person: a proposal on what belongs to no tenant
    -- (a regulator row's void, a staff account) has none.
    alter table decision_proposals alter column tenant_id drop not null;

    -- A permanent exclusion's void moves onto it: a pending proposal keeps its proposer, time and reason.
    insert into decision_proposals
      (proposal_id, subject, subject_id, tenant_id, action, reason, proposed_by, proposed_at, status)
    select 'prop_' || replace(gen_random_uuid()::text, '-', ''), 'exclusion', v.exclusion_id, e.tenant_id, 'void',
           v.reason, v.proposed_by, v.proposed_at, 'pending'
    from exclusion_void_proposals v join exclusions e on e.exclusion_id = v.exclusion_id;
    drop table exclusion_void_proposals;

    -- An account with a role that approves four-eyes decisions exists only once a second admin approves it:
    -- until then it is 'proposed', with no setup link, and cannot sign in.
    alter table staff_accounts drop constraint staff_accounts_status_check;
    alter table staff_accounts add constraint staff_accounts_status_check
      check (status in ('proposed', 'invited', 'active', 'disabled'));
    -- Who approved the account (a second admin, or null for an account that needed none) and who changed it last.
    alter table staff_accounts
      add column approved_by text,
      add column approved_at timestamptz,
      add column changed_by text,
      add column changed_at timestamptz;
    -- The opaque, stable reference that names a member of staff to tenants (the reviewer of a decision in a
    -- webhook): never their staff id, name or email.
    alter table staff_accounts add column reviewer_ref text;
    update staff_accounts set reviewer_ref = 'rvw_' || substr(replace(gen_random_uuid()::text, '-', ''), 1, 20);
    alter table staff_accounts alter column reviewer_ref set not null;
    create unique index staff_accounts_reviewer_ref on staff_accounts (reviewer_ref);
    `,
  );
}
