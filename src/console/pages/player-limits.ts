import {
  breachAttemptsOfUser,
  limitHistory,
  listLimitsOfKind,
  type LimitChangeKind,
  type LimitHistoryEntry,
  type LimitKind,
} from '../../areas/limits/index.js';
import type { TenantScopedContext } from '../../platform/context.js';
import { html, time, type Html } from '../../platform/html.js';
import { formatMoney } from '../../platform/money.js';
import { durationText } from './dashboard.js';
import { table } from './record-table.js';

/** The limits' history and the breach attempts stop here (each says when there are more): the page is a summary. */
const LIMIT_ROWS = 200;
const BREACH_ROWS = 500;

const KIND_NAMES: Record<LimitKind, string> = {
  deposit: 'deposit',
  loss: 'loss',
  wager: 'wager',
  play_time: 'play time',
};
const CHANGE_NAMES: Record<LimitChangeKind, string> = {
  created: 'set',
  decreased: 'decreased',
  increase_requested: 'increase requested',
  activated: 'increase in force',
  cancelled: 'increase cancelled',
};

/** A limit's amount as staff read it: money in its currency, play time as a duration. */
const amount = (value: number | null | undefined, currency: string | null | undefined): string | null =>
  value === null || value === undefined
    ? null
    : currency
      ? formatMoney(value, currency)
      : durationText(value * 1000);

function status(limit: LimitHistoryEntry): Html | string {
  switch (limit.status) {
    case 'active':
      return 'in force';
    case 'pending':
      return html`pending, in force from ${time(limit.effective_from)}`;
    default:
      return limit.status;
  }
}

const more = (shown: number, total: number, what: string) =>
  total > shown ? html`<p class="hint">The newest ${shown} of ${total} ${what} are shown.</p>` : '';

/**
 * The player's limits of every kind: those in force with their window's use, every limit asked for with its status,
 * the changes they went through, and every rejected deposit and stake check (limit.breach_attempt).
 */
export async function limitSections(ctx: TenantScopedContext, userId: string): Promise<Html> {
  const now = ctx.clock.now();
  const [inForce, history, breaches] = await Promise.all([
    listLimitsOfKind(ctx, userId, 'all'),
    limitHistory(ctx.db, ctx.tenantId, userId, now, LIMIT_ROWS),
    breachAttemptsOfUser(ctx.db, ctx.tenantId, userId, BREACH_ROWS),
  ]);
  const inForceRows = inForce.map((l) => {
    const seconds = 'amount_seconds' in l && l.amount_seconds !== undefined;
    const currency = seconds ? null : (l.currency ?? null);
    const pending = l.pending_change;
    return {
      kind: ('limit_kind' in l ? l.limit_kind : 'deposit') as LimitKind,
      type: l.limit_type,
      limit: amount(seconds ? l.amount_seconds : l.amount_cents, currency),
      spent: seconds ? amount(l.spent_seconds, null) : amount(l.spent_cents, currency),
      held: seconds ? null : amount(l.held_cents, currency),
      remaining: seconds ? amount(l.remaining_seconds, null) : amount(l.remaining_cents, currency),
      next_reset_at: l.next_reset_at,
      pending: pending
        ? html`${amount(
            'amount_seconds' in pending ? pending.amount_seconds : pending.amount_cents,
            'amount_seconds' in pending ? null : pending.currency,
          )}
          from ${time(pending.effective_from)}`
        : null,
    };
  });

  return html`<h2>Limits in force</h2>
    <p class="hint">
      Every kind: deposits, net loss (stakes less payouts, never below zero) and stakes in the rolling window
      ending now; play time as a duration.
    </p>
    ${table(
      inForceRows,
      [
        ['Kind', (l) => KIND_NAMES[l.kind]],
        ['Type', (l) => l.type],
        ['Limit', (l) => l.limit],
        ['Spent', (l) => l.spent],
        ['Held', (l) => l.held],
        ['Remaining', (l) => l.remaining],
        ['Next reset', (l) => time(l.next_reset_at)],
        ['Pending change', (l) => l.pending],
      ],
      { empty: 'No limit in force.' },
    )}

    <h2>Limit history</h2>
    <p class="hint">Every limit the player asked for, newest first: a change is a new limit.</p>
    ${more(history.limits.length, history.total, 'limits')}
    ${table(
      history.limits,
      [
        ['Limit', (l) => l.limit_id],
        ['Kind', (l) => KIND_NAMES[l.limit_kind]],
        ['Type', (l) => l.limit_type],
        ['Amount', (l) => amount(l.amount, l.currency)],
        ['Before', (l) => amount(l.previous_amount, l.currency)],
        ['Status', status],
        ['Requested', (l) => time(l.created_at)],
        ['In force from', (l) => (l.status === 'cancelled' ? null : time(l.effective_from))],
        ['Ended', (l) => time(l.ended_at)],
      ],
      { empty: 'No limit set.' },
    )}

    <h2>Limit changes</h2>
    ${table(
      history.changes,
      [
        ['When', (c) => time(c.at)],
        ['Change', (c) => CHANGE_NAMES[c.change]],
        ['Kind', (c) => KIND_NAMES[c.limit.limit_kind]],
        ['Type', (c) => c.limit.limit_type],
        ['Amount', (c) => amount(c.limit.amount, c.limit.currency)],
        ['Before', (c) => amount(c.limit.previous_amount, c.limit.currency)],
        ['Limit', (c) => c.limit.limit_id],
      ],
      { empty: 'No limit change.' },
    )}

    <h2>Breach attempts</h2>
    <p class="hint">
      Every deposit and stake the checks refused for a limit (limit.breach_attempt), newest first:
      ${breaches.total} in all.
    </p>
    ${more(breaches.attempts.length, breaches.total, 'breach attempts')}
    ${table(
      breaches.attempts,
      [
        ['When', (b) => time(b.at)],
        ['Check', (b) => (b.limit_kind === 'deposit' ? 'deposit' : 'stake')],
        ['Kind', (b) => KIND_NAMES[b.limit_kind]],
        ['Type', (b) => b.limit_type],
        ['Attempted', (b) => amount(b.amount_cents, b.currency)],
        ['Limit', (b) => amount(b.limit_amount_cents, b.currency)],
        ['Already used', (b) => amount(b.already_spent_cents, b.currency)],
        ['Event', (b) => b.event_id],
      ],
      { empty: 'No breach attempt.' },
    )}`;
}
