import { sql, type Insertable, type Transaction, type Updateable } from 'kysely';
import type { Executor } from '../db/database.js';
import type { DeliveryStatus, EventRow, EventsTable, WebhookAttemptsTable } from '../db/platform-tables.js';
import type { DB } from '../db/schema.js';

/** Events sent by a claim, and those it parked for want of a usable destination (`parked`). */
export type ClaimedEvent = EventRow & { parked: boolean };

/**
 * One statement, so claims of several processes stay exclusive (SKIP LOCKED) and nothing is claimed only to be
 * given back: due candidates oldest first; those of a tenant with no usable destination are parked at once (no
 * attempt, no slot); of the rest, at most each tenant's free slots are claimed. `busy` is JSON: the attempts this
 * process has in flight per tenant, `[{ tenant_id, n }]`.
 */
export async function claimDueEvents(
  db: Executor,
  input: {
    busy: string;
    now: Date;
    token: string;
    claimedUntil: Date;
    maxInFlightPerTenant: number;
    candidates: number;
    batchSize: number;
  },
): Promise<ClaimedEvent[]> {
  const { rows } = await sql<EventRow & { parked: boolean }>`
      with busy as (
        select tenant_id, n from jsonb_to_recordset(${input.busy}::jsonb) as b(tenant_id text, n integer)
      ),
      candidates as (
        select e.event_id, e.tenant_id, e.next_attempt_at, e.created_at,
          (t.webhook_url is null or t.webhook_disabled_at is not null) as nowhere
        from events e join tenants t on t.tenant_id = e.tenant_id
        where e.delivery_status = 'pending' and e.next_attempt_at <= ${input.now}::timestamptz
          and (e.claimed_until is null or e.claimed_until <= ${input.now}::timestamptz)
          and e.tenant_id not in (select tenant_id from busy where n >= ${input.maxInFlightPerTenant})
        order by e.next_attempt_at
        limit ${input.candidates}
        for update of e skip locked
      ),
      parked as (
        update events set delivery_status = 'no_destination', next_attempt_at = null,
          claim_token = null, claimed_until = null
        where (event_id, created_at) in (select event_id, created_at from candidates where nowhere)
        returning *
      ),
      ranked as (
        select c.event_id, c.next_attempt_at, c.created_at,
          row_number() over (partition by c.tenant_id order by c.next_attempt_at, c.created_at, c.event_id)
            + coalesce(b.n, 0) as slot
        from candidates c left join busy b on b.tenant_id = c.tenant_id
        where not c.nowhere
      ),
      claimed as (
        update events set claim_token = ${input.token},
          claimed_until = ${input.claimedUntil}::timestamptz
        where (event_id, created_at) in (
          select event_id, created_at from ranked where slot <= ${input.maxInFlightPerTenant}
          order by next_attempt_at, created_at, event_id
          limit ${input.batchSize}
        )
        returning *
      )
      select *, false as parked from claimed
      union all
      select *, true as parked from parked`.execute(db);
  return rows;
}

/** The destination and signing secrets of each of these tenants. */
export function selectDeliveryTenants(db: Executor, tenantIds: string[]) {
  return db
    .selectFrom('tenants')
    .select([
      'tenant_id',
      'webhook_url',
      'webhook_disabled_at',
      'signing_secret',
      'previous_signing_secret',
      'previous_signing_secret_expires_at',
    ])
    .where('tenant_id', 'in', tenantIds)
    .execute();
}

/**
 * Updates an event while this claim still holds it; returns false when the claim lapsed and was taken over. Its
 * creation time names the partition that holds it.
 */
export async function updateClaimedEvent(
  db: Executor,
  event: { event_id: string; created_at: Date },
  token: string,
  changes: Updateable<EventsTable>,
): Promise<boolean> {
  const updated = await db
    .updateTable('events')
    .set(changes)
    .where('event_id', '=', event.event_id)
    .where('created_at', '=', event.created_at)
    .where('claim_token', '=', token)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

/**
 * Records an attempt, numbered after the event's earlier attempts (across redeliveries). None precedes the event's
 * creation: bounded by it, the count reads only the partitions of attempts since (docs/data.md, Partitions).
 */
export async function insertWebhookAttempt(
  tx: Transaction<DB>,
  attempt: Omit<Insertable<WebhookAttemptsTable>, 'attempt_id' | 'attempt_number'>,
  eventCreatedAt: Date,
): Promise<void> {
  await tx
    .insertInto('webhook_attempts')
    .values({
      event_id: attempt.event_id,
      tenant_id: attempt.tenant_id,
      attempt_number: sql<number>`(select coalesce(max(attempt_number), 0) + 1 from webhook_attempts
        where event_id = ${attempt.event_id} and attempted_at >= ${eventCreatedAt}::timestamptz)`,
      attempted_at: attempt.attempted_at,
      url: attempt.url,
      status_code: attempt.status_code,
      latency_ms: attempt.latency_ms,
      error: attempt.error,
      outcome: attempt.outcome,
    })
    .execute();
}

/** Whether any attempt to the tenant's destination was delivered at or after `since`. */
export async function anyDeliveredSince(
  tx: Transaction<DB>,
  tenantId: string,
  since: Date,
): Promise<boolean> {
  const delivered = await tx
    .selectFrom('webhook_attempts')
    .select('attempt_id')
    .where('tenant_id', '=', tenantId)
    .where('outcome', '=', 'delivered')
    .where('attempted_at', '>=', since)
    .limit(1)
    .executeTakeFirst();
  return delivered !== undefined;
}

/** Marks the tenant's destination disabled at `now`; false when it was disabled already. */
export async function disableDestinationOf(
  tx: Transaction<DB>,
  tenantId: string,
  now: Date,
): Promise<boolean> {
  const disabled = await tx
    .updateTable('tenants')
    .set({ webhook_disabled_at: now })
    .where('tenant_id', '=', tenantId)
    .where('webhook_disabled_at', 'is', null)
    .executeTakeFirst();
  return Number(disabled.numUpdatedRows) > 0;
}

/** Updates the tenant's events in `status` that no claim holds at `now`. */
export async function updateUnclaimedEvents(
  tx: Transaction<DB>,
  tenantId: string,
  status: DeliveryStatus,
  now: Date,
  changes: Updateable<EventsTable>,
): Promise<void> {
  await tx
    .updateTable('events')
    .set(changes)
    .where('tenant_id', '=', tenantId)
    .where('delivery_status', '=', status)
    .where((w) => w.or([w('claimed_until', 'is', null), w('claimed_until', '<=', now)]))
    .execute();
}

/** Puts one event back in the queue, due at `now`, from its first attempt; false when there is no such event. */
export async function requeueEvent(db: Executor, eventId: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('events')
    .set({
      delivery_status: 'pending',
      attempt_count: sql<number>`0`,
      next_attempt_at: now,
      claim_token: null,
      claimed_until: null,
      delivered_at: null,
    })
    .where('event_id', '=', eventId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Puts back in the queue, from a fresh schedule, the tenant's events created since `since` in these statuses and
 * held by no claim: due one microsecond apart in the order they were produced, the last at `now`. Returns how many.
 */
export async function requeueEventsSince(
  db: Executor,
  input: { tenantId: string; since: Date; now: Date; statuses: readonly DeliveryStatus[] },
): Promise<number> {
  const { tenantId, since, now, statuses } = input;
  const result = await sql`
      update events e set delivery_status = 'pending', attempt_count = 0, claim_token = null, claimed_until = null,
        delivered_at = null,
        next_attempt_at = ${now}::timestamptz - (q.total - q.position) * interval '1 microsecond'
      from (
        select event_id, created_at, row_number() over (order by created_at, event_id) as position,
          count(*) over () as total
        from events
        where tenant_id = ${tenantId} and created_at >= ${since}::timestamptz
          and delivery_status in (${sql.join(statuses.map((s) => sql.lit(s)))})
          and (claimed_until is null or claimed_until <= ${now}::timestamptz)
      ) q
      where e.event_id = q.event_id and e.created_at = q.created_at and e.created_at >= ${since}::timestamptz`.execute(
    db,
  );
  return Number(result.numAffectedRows ?? 0);
}
