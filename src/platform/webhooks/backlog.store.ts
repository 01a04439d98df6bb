import { sql } from 'kysely';
import type { Executor } from '../db/database.js';

/** What the metrics read of the webhook deliveries at a scrape: one statement each. */

/** Events not yet delivered (pending: a first attempt or a retry due), and the oldest one's creation time. */
export async function deliveryBacklog(db: Executor): Promise<{ waiting: number; oldestAt: Date | null }> {
  const row = await db
    .selectFrom('events')
    .select((eb) => [eb.fn.countAll<number>().as('waiting'), eb.fn.min('created_at').as('oldest_at')])
    .where('delivery_status', '=', sql.lit('pending'))
    .executeTakeFirstOrThrow();
  return { waiting: Number(row.waiting), oldestAt: row.oldest_at ? new Date(row.oldest_at) : null };
}

/**
 * Destinations disabled, and those enabled whose latest attempt failed (the latest by the webhook_attempts_tenant
 * index, one row a tenant).
 */
export async function destinationStates(db: Executor): Promise<{ failing: number; disabled: number }> {
  const { rows } = await sql<{ failing: number; disabled: number }>`
    select count(*) filter (where t.webhook_disabled_at is null and latest.outcome <> 'delivered') as failing,
           count(*) filter (where t.webhook_disabled_at is not null) as disabled
    from tenants t
    left join lateral (
      select a.outcome from webhook_attempts a where a.tenant_id = t.tenant_id order by a.attempt_id desc limit 1
    ) latest on true
    where t.webhook_url is not null`.execute(db);
  return { failing: Number(rows[0]!.failing), disabled: Number(rows[0]!.disabled) };
}
