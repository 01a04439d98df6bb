import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openUnmigratedDatabase } from '../../../test/helpers/migration-database.js';
import { useSuite } from '../../../test/helpers/suite.js';

/** Migration 0013 on rows written before it: outcomes, fingerprints, case origins, due times and review alerts. */
describe('migration 0013 (AML outcomes, case origins and due times, dead letters) on existing rows', () => {
  const suite = useSuite(async (own) => {
    const { database, migrateTo } = await openUnmigratedDatabase(own);
    await migrateTo('2026-11-25T0012_register_privacy');
    await sql`insert into tenants (tenant_id, name, environment, signing_secret, created_at, updated_at)
      values ('ten_m', 'M', 'sandbox', 's', now(), now())`.execute(database.db);
    const event = (id: string, type: string, paymentMethod: string | null, metadata: object) =>
      sql`insert into aml_events (event_id, tenant_id, user_id, event_type, transaction_id, amount_cents, currency,
          usd_cents, payment_method, fingerprint, metadata, occurred_at, received_at, request_hash)
        values (${id}, 'ten_m', 'u', ${type}, ${id}, 100, 'USD', 100, ${paymentMethod},
          ${(metadata as { payment_method_fingerprint?: string }).payment_method_fingerprint ?? paymentMethod},
          ${JSON.stringify(metadata)}::jsonb, now(), now(), 'h')`.execute(database.db);
    await event('e_card', 'deposit', 'card', {});
    await event('e_token', 'deposit', 'card', { payment_method_fingerprint: 'tok' });
    await event('e_failed', 'deposit', null, { status: 'failed' });
    const aCase = (id: string, status: string, source: string, withdrawal: string | null) =>
      sql`insert into aml_cases (case_id, tenant_id, user_id, status, source, withdrawal_id, rules_triggered,
          risk_score, transaction_ids, context, opened_at, updated_at, decided_at)
        values (${id}, 'ten_m', 'u', ${status}, ${source}, ${withdrawal}, '[]', 70, '[]', '[]',
          '2026-11-20T10:00:00Z', '2026-11-20T10:00:00Z',
          ${status === 'under_review' ? null : '2026-11-21T10:00:00Z'})`.execute(database.db);
    const screen = (withdrawal: string, decision: string, caseId: string) =>
      sql`insert into aml_screens (tenant_id, withdrawal_id, user_id, amount_cents, currency, usd_cents,
          payment_method, destination_country, decision, risk_score, rules_triggered, case_id, request_hash,
          screened_at)
        values ('ten_m', ${withdrawal}, 'u', 1, 'USD', 1, 'bank', 'CA', ${decision}, 70, '[]', ${caseId}, 'h',
          now())`.execute(database.db);
    await aCase('c_async', 'under_review', 'async', null);
    await aCase('c_hold', 'held', 'realtime', 'w_hold');
    await screen('w_hold', 'hold', 'c_hold');
    await aCase('c_reject', 'escalated', 'realtime', 'w_reject');
    await screen('w_reject', 'reject', 'c_reject');
    await migrateTo('2026-11-25T0013_aml_outcomes_dead_letters');
    return database;
  });

  it('keeps only explicit fingerprints and takes the outcome from metadata.status', async () => {
    const database = suite.current;
    const rows = await database.db
      .selectFrom('aml_events')
      .select(['event_id', 'fingerprint', 'status'])
      .orderBy('event_id')
      .execute();
    expect(rows).toEqual([
      { event_id: 'e_card', fingerprint: null, status: 'succeeded' },
      { event_id: 'e_failed', fingerprint: null, status: 'failed' },
      { event_id: 'e_token', fingerprint: 'tok', status: 'succeeded' },
    ]);
  });

  it('gives each case its origin, its due time 48 hours after opening, and its review alerts', async () => {
    const database = suite.current;
    const cases = await database.db
      .selectFrom('aml_cases')
      .select(['case_id', 'origin', 'due_at', 'reviewed_at'])
      .orderBy('case_id')
      .execute();
    const due = new Date('2026-11-22T10:00:00Z');
    expect(cases).toEqual([
      { case_id: 'c_async', origin: 'async', due_at: due, reviewed_at: null },
      { case_id: 'c_hold', origin: 'screen_hold', due_at: due, reviewed_at: null },
      {
        case_id: 'c_reject',
        origin: 'screen_reject',
        due_at: due,
        reviewed_at: new Date('2026-11-21T10:00:00Z'),
      },
    ]);
    const jobs = await database.db
      .selectFrom('scheduled_jobs')
      .select(['kind', 'subject_id', 'due_at', 'payload'])
      .where('kind', 'like', 'review.aml.%')
      .orderBy('subject_id')
      .orderBy('kind')
      .execute();
    const payload = { due_at: '2026-11-22T10:00:00.000Z' };
    expect(jobs).toEqual([
      {
        kind: 'review.aml.review_due_soon',
        subject_id: 'c_async',
        due_at: new Date('2026-11-22T06:00:00Z'),
        payload,
      },
      { kind: 'review.aml.review_overdue', subject_id: 'c_async', due_at: due, payload },
      {
        kind: 'review.aml.review_due_soon',
        subject_id: 'c_hold',
        due_at: new Date('2026-11-22T06:00:00Z'),
        payload,
      },
      { kind: 'review.aml.review_overdue', subject_id: 'c_hold', due_at: due, payload },
    ]);
  });
});
