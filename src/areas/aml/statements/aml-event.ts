import { sql, type Insertable } from 'kysely';
import type { Executor } from '../../../platform/db/database.js';
import {
  columnArrays,
  precompiled,
  unnestArrays,
  type ColumnArrays,
  type Param,
} from '../../../platform/db/precompiled.js';
import { usdCentsSql } from '../../../platform/fx.js';
import type { AmlEventsTable } from '../aml.tables.js';

/**
 * The values an ingested event sends: its columns but usd_cents, which the storing statement computes from the
 * rate current when it runs (usdCentsSql), with the currency's minor-unit scale sent for that. A conversion is
 * then no round trip of its own: a tenant whose events are in euros pays what one in dollars does.
 */
const EVENT_VALUES = {
  event_id: 'text',
  tenant_id: 'text',
  user_id: 'text',
  event_type: 'text',
  transaction_id: 'text',
  amount_cents: 'bigint',
  currency: 'text',
  minor_scale: 'integer',
  payment_method: 'text',
  fingerprint: 'text',
  status: 'text',
  metadata: 'jsonb',
  occurred_at: 'timestamptz',
  received_at: 'timestamptz',
  request_hash: 'text',
} as const;

type SentColumn = Exclude<keyof typeof EVENT_VALUES, 'minor_scale'>;
export type NewEvent = { [K in SentColumn]: Insertable<AmlEventsTable>[K] } & { minor_scale: number };

const SENT_COLUMNS = Object.keys(EVENT_VALUES).filter((name) => name !== 'minor_scale') as SentColumn[];

/**
 * Stores the events and queues each one stored for evaluation, in one statement (so one commit): the natural key
 * first (aml_event_keys: a transaction_id taken stores nothing), then the event in its partition, then its queue row.
 */
const insertEventsStatement = precompiled((db, param: Param<ColumnArrays<typeof EVENT_VALUES>>) => {
  // An amount of 0 (a login, say) is 0 in any currency, with or without a rate.
  const usdCents = sql<number>`case when sent.amount_cents = 0 then 0 else ${usdCentsSql(
    sql.ref('sent.amount_cents'),
    sql.ref('sent.currency'),
    sql.ref('sent.minor_scale'),
  )} end`;
  // Parenthesised: the CTE's body is this raw statement as written.
  const sent = sql<NewEvent>`(select * from ${unnestArrays(EVENT_VALUES, param)}
    as v(${sql.join(Object.keys(EVENT_VALUES).map((name) => sql.id(name)))}))`;
  return db
    .with('sent', () => sent)
    .with('keyed', (qb) =>
      qb
        .insertInto('aml_event_keys')
        .columns(['tenant_id', 'transaction_id', 'event_id', 'occurred_at'])
        .expression((eb) =>
          eb.selectFrom('sent').select(['tenant_id', 'transaction_id', 'event_id', 'occurred_at']),
        )
        .onConflict((oc) => oc.columns(['tenant_id', 'transaction_id']).doNothing())
        .returning('event_id'),
    )
    .with('stored', (qb) =>
      qb
        .insertInto('aml_events')
        .columns([...SENT_COLUMNS, 'usd_cents'])
        .expression((eb) =>
          eb
            .selectFrom('sent')
            .innerJoin('keyed', 'keyed.event_id', 'sent.event_id')
            .select([...SENT_COLUMNS.map((name) => `sent.${name}` as const), usdCents.as('usd_cents')]),
        )
        .returning(['event_id', 'received_at', 'occurred_at']),
    )
    .with('queued', (qb) =>
      qb
        .insertInto('aml_evaluation_queue')
        .columns(['event_id', 'received_at', 'occurred_at'])
        .expression((eb) => eb.selectFrom('stored').select(['event_id', 'received_at', 'occurred_at'])),
    )
    .selectFrom('stored')
    .select(['event_id', 'received_at']);
});

/**
 * Stores events and queues them for evaluation, in one statement; per row, its acknowledgement, or undefined when
 * its transaction_id is taken (that event is neither stored nor queued again).
 */
export async function insertEvents(db: Executor, rows: NewEvent[]) {
  const inserted = await insertEventsStatement.execute(db, columnArrays(EVENT_VALUES, rows));
  const byId = new Map(inserted.map((row) => [row.event_id, row]));
  return rows.map((row) => byId.get(row.event_id));
}
