import type { Kysely } from 'kysely';
import { executeStatements } from './execute-statements.js';

// Frozen once merged: later changes go in new migrations.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(
    db,
    `
    -- Set when the destination kept failing past the whole retry schedule; deliveries to it stop until the staff
    -- enable it again or register a URL (docs/webhooks.md).
    alter table tenants add column webhook_disabled_at timestamptz;

    -- The events feed and the redelivery of a tenant's events since a time walk (created_at, event_id) in order;
    -- the delivery log reads the same index backwards.
    drop index events_tenant;
    create index events_tenant on events (tenant_id, created_at, event_id);

    -- Whether a destination delivered anything within the retry schedule's span, asked when an event exhausts it.
    create index webhook_attempts_delivered on webhook_attempts (tenant_id, attempted_at) where outcome = 'delivered';
    `,
  );
}
