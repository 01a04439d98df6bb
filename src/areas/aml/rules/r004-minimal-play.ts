import type { Executor } from '../../../platform/db/database.js';
import { scheduleJob } from '../../../platform/scheduler.js';
import { AML_RULES } from '../aml.rules.js';
import type { AmlEvent, AmlEventType } from '../aml.tables.js';
import { check, type Check } from '../statements/checks.js';
import { depositsWithWagers, wageredBetween } from '../statements/history.js';
import { secondsAfter, type HistoryPoint, type Trip } from './types.js';

const { parameters, counts } = AML_RULES['R-004'];
const evaluatedOn: readonly AmlEventType[] = AML_RULES['R-004'].evaluatedOn;
const { min_deposit_exclusive_usd_cents, max_wagered_percent, window_seconds } = parameters;

/** R-004 looks 24 hours forward: a job re-checks each large deposit when its window closes. */
export const MINIMAL_PLAY_JOB = 'aml.r004';

const underPlayed = (wageredUsdCents: number, depositUsdCents: number) =>
  100 * wageredUsdCents < max_wagered_percent * depositUsdCents;

export async function scheduleMinimalPlay(db: Executor, event: AmlEvent): Promise<void> {
  // Only money that moved: a declined or pending deposit is no deposit to play through.
  if (!evaluatedOn.includes(event.event_type) || event.usd_cents <= min_deposit_exclusive_usd_cents) return;
  if (counts === 'succeeded' && event.status !== 'succeeded') return;
  await scheduleJob(db, {
    kind: MINIMAL_PLAY_JOB,
    subjectId: event.event_id,
    tenantId: event.tenant_id,
    dueAt: secondsAfter(event.occurred_at, window_seconds),
  });
}

function trip(
  userId: string,
  deposit: Pick<AmlEvent, 'event_id' | 'transaction_id' | 'usd_cents'>,
  wagered: number,
  at: Date,
): Trip {
  return {
    rule: 'R-004',
    userId,
    patternKey: deposit.event_id,
    at,
    transactionIds: [deposit.transaction_id],
    details: { deposit_usd_cents: deposit.usd_cents, wagered_usd_cents: wagered, window_seconds },
  };
}

/** R-004 once the deposit's window has closed: wagers in [deposit, deposit + 24 h] under 5% of it. */
export function minimalPlayAfterWindow(deposit: AmlEvent): Check {
  const end = secondsAfter(deposit.occurred_at, window_seconds);
  const fragment = () =>
    wageredBetween({
      tenantId: deposit.tenant_id,
      userId: deposit.user_id,
      from: deposit.occurred_at,
      to: end,
      counts,
    });
  return check(fragment, (wagered) =>
    underPlayed(Number(wagered), deposit.usd_cents)
      ? [trip(deposit.user_id, deposit, Number(wagered), end)]
      : [],
  );
}

/** R-004 at a screen: deposits over USD 5,000 in the last 24 hours with under 5% wagered since. */
export function minimalPlayNow(p: HistoryPoint): Check {
  const fragment = () =>
    depositsWithWagers(p, {
      seconds: window_seconds,
      overUsdCents: min_deposit_exclusive_usd_cents,
      counts,
    });
  return check(fragment, (deposits) =>
    deposits
      .filter((d) => underPlayed(d.wagered, d.usd_cents))
      .map((d) => trip(p.userId, d, d.wagered, p.at)),
  );
}
