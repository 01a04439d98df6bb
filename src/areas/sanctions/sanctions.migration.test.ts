import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openUnmigratedDatabase } from '../../../test/helpers/migration-database.js';
import { useSuite } from '../../../test/helpers/suite.js';
import { subjectDigest } from './service/dismissals.js';

/** Migration 0014 on rows written before it: due times, review alerts, no expiry in pending_review. */
describe('migration 0014 (sanctions and KYC review due times) on existing rows', () => {
  const suite = useSuite(async (own) => {
    const { database, migrateTo } = await openUnmigratedDatabase(own);
    await migrateTo('2026-11-25T0012_register_privacy');
    const run = (query: ReturnType<typeof sql>) => query.execute(database.db);
    await run(sql`insert into tenants (tenant_id, name, environment, signing_secret, created_at, updated_at)
      values ('ten_m', 'M', 'sandbox', 's', now(), now())`);
    for (const [screenId, caseId, status] of [
      ['scr_p', 'case_p', 'hit_review_pending'],
      ['scr_c', 'case_c', 'cleared'],
    ] as const) {
      await run(sql`insert into sanctions_screens (screen_id, tenant_id, user_id, first_name, last_name, date_of_birth,
          nationality, email, status, transactions_held, match_count, highest_match_score, case_id, vendor,
          checked_at, updated_at, request_hash, screen_response)
        values (${screenId}, 'ten_m', ${screenId}, 'A', 'B', '1990-01-01', 'GB', 'a@example.com', ${status}, true, 1,
          0.9, ${caseId}, 'sandbox', now(), now(), 'h', '{}')`);
      await run(sql`insert into sanctions_cases (case_id, tenant_id, screen_id, user_id, status, matches,
          highest_match_score, opened_at, trigger)
        values (${caseId}, 'ten_m', ${screenId}, ${screenId}, ${status}, '[]', 0.9, '2026-11-20T10:00:00Z', 'signup')`);
    }
    for (const [checkId, status] of [
      ['kyc_r', 'pending_review'],
      ['kyc_n', 'not_started'],
    ] as const) {
      await run(sql`insert into kyc_checks (kyc_check_id, tenant_id, user_id, required_tier, required_documents,
          status, withdrawal_amount_cents, currency, withdrawal_usd_cents, vendor_token_hash,
          vendor_token_expires_at, request_hash, created_at, updated_at, last_activity_at)
        values (${checkId}, 'ten_m', ${checkId}, 'tier_1', '[]', ${status}, 100, 'USD', 100, ${checkId}, now(), 'h',
          '2026-11-20T10:00:00Z', '2026-11-20T10:00:00Z', '2026-11-20T10:00:00Z')`);
      await run(sql`insert into scheduled_jobs (job_id, kind, subject_id, tenant_id, due_at)
        values (${`job_${checkId}`}, 'kyc.expire', ${checkId}, 'ten_m', '2026-11-27T10:00:00Z')`);
    }
    await run(sql`insert into scheduled_jobs (job_id, kind, subject_id, due_at)
      values ('job_q', 'sanctions.rescreen_quarterly', 'all', '2027-02-19T00:00:00Z')`);
    await migrateTo('2026-11-25T0014_review_due_times');
    return database;
  });

  const jobs = async () =>
    (
      await sql<{ kind: string; subject_id: string; due_at: Date; payload: { due_at?: string } }>`
        select kind, subject_id, due_at, payload from scheduled_jobs order by kind, subject_id`.execute(
        suite.current.db,
      )
    ).rows;

  it('gives every sanctions case its due time, 48 hours from opening', async () => {
    const database = suite.current;
    const rows = await sql<{ case_id: string; due_at: Date }>`select case_id, due_at from sanctions_cases
      order by case_id`.execute(database.db);
    expect(rows.rows.map((r) => [r.case_id, new Date(r.due_at).toISOString()])).toEqual([
      ['case_c', '2026-11-22T10:00:00.000Z'],
      ['case_p', '2026-11-22T10:00:00.000Z'],
    ]);
  });

  it('gives checks in pending_review a due time and stops their expiry; not_started still expires', async () => {
    const database = suite.current;
    const rows = await sql<{
      kyc_check_id: string;
      review_due_at: Date | null;
    }>`select kyc_check_id, review_due_at
      from kyc_checks order by kyc_check_id`.execute(database.db);
    expect(
      rows.rows.map((r) => [r.kyc_check_id, r.review_due_at && new Date(r.review_due_at).toISOString()]),
    ).toEqual([
      ['kyc_n', null],
      ['kyc_r', '2026-11-22T10:00:00.000Z'],
    ]);
    const expiring = (await jobs()).filter((j) => j.kind === 'kyc.expire').map((j) => j.subject_id);
    expect(expiring).toEqual(['kyc_n']);
  });

  it('stores the review alerts of the cases awaiting review only, and moves the re-screen to the calendar', async () => {
    const alerts = (await jobs())
      .filter((j) => j.kind.startsWith('review.'))
      .map((j) => [j.kind, j.subject_id, new Date(j.due_at).toISOString(), j.payload.due_at]);
    expect(alerts).toEqual([
      ['review.kyc.review_due_soon', 'kyc_r', '2026-11-22T06:00:00.000Z', '2026-11-22T10:00:00.000Z'],
      ['review.kyc.review_overdue', 'kyc_r', '2026-11-22T10:00:00.000Z', '2026-11-22T10:00:00.000Z'],
      ['review.sanctions.review_due_soon', 'case_p', '2026-11-22T06:00:00.000Z', '2026-11-22T10:00:00.000Z'],
      ['review.sanctions.review_overdue', 'case_p', '2026-11-22T10:00:00.000Z', '2026-11-22T10:00:00.000Z'],
    ]);
    expect((await jobs()).filter((j) => j.kind === 'sanctions.rescreen_quarterly')).toEqual([]);
  });
});

/** Migration 0025 on cases cleared before it: each dismissed match remembered, as the service would digest it. */
describe('migration 0025 (sanctions list changes) on cases cleared before it', () => {
  const suite = useSuite(async (own) => {
    const { database, migrateTo } = await openUnmigratedDatabase(own);
    await migrateTo('2026-11-28T0024_four_eyes_by_people');
    const run = (query: ReturnType<typeof sql>) => query.execute(database.db);
    await run(sql`insert into tenants (tenant_id, name, environment, signing_secret, created_at, updated_at)
      values ('ten_m', 'M', 'live', 's', now(), now())`);
    await run(sql`insert into sanctions_screens (screen_id, tenant_id, user_id, first_name, last_name, date_of_birth,
        nationality, email, status, transactions_held, match_count, highest_match_score, case_id, vendor,
        checked_at, updated_at, request_hash, screen_response)
      values ('scr_c', 'ten_m', 'u1', 'Zoë', 'Ørsted', '0987-03-04', 'DK', 'z@example.com', 'cleared', false, 2,
        0.91, 'case_new', 'production', now(), now(), 'h', '{}')`);
    const matches = (score: number) =>
      JSON.stringify([
        { list: 'un', entity_id: 'QDi.1', name: 'Zoe ORSTED', score },
        { list: 'eu', entity_id: '42', name: 'Zoe Oersted', score: 0.86 },
      ]);
    for (const [caseId, decided, score] of [
      ['case_old', '2026-11-01T10:00:00Z', 0.88],
      ['case_new', '2026-11-10T10:00:00Z', 0.91],
    ] as const) {
      await run(sql`insert into sanctions_cases (case_id, tenant_id, screen_id, user_id, status, matches,
          highest_match_score, opened_at, due_at, decided_at, reviewer, trigger)
        values (${caseId}, 'ten_m', 'scr_c', 'u1', 'cleared', ${matches(score)}::jsonb, ${score}, ${decided},
          ${decided}, ${decided}, 'stf_1', 'rescreen')`);
    }
    await migrateTo('2026-12-01T0025_sanctions_list_changes');
    return database;
  });

  it("remembers each entity once, from the latest cleared case, with the player's details digested as the service does", async () => {
    const rows = await sql<{
      case_id: string;
      list: string;
      entity_id: string;
      score: number;
      entity_digest: string | null;
      subject_digest: string;
      dismissed_by: string;
      ended_at: Date | null;
    }>`select case_id, list, entity_id, score, entity_digest, subject_digest, dismissed_by, ended_at
      from sanctions_dismissals order by list, entity_id`.execute(suite.current.db);
    const subject = subjectDigest({
      first_name: 'Zoë',
      last_name: 'Ørsted',
      date_of_birth: '0987-03-04',
      nationality: 'DK',
    });
    expect(rows.rows).toEqual([
      {
        case_id: 'case_new',
        list: 'eu',
        entity_id: '42',
        score: 0.86,
        entity_digest: null,
        subject_digest: subject,
        dismissed_by: 'stf_1',
        ended_at: null,
      },
      {
        case_id: 'case_new',
        list: 'un',
        entity_id: 'QDi.1',
        score: 0.91,
        entity_digest: null,
        subject_digest: subject,
        dismissed_by: 'stf_1',
        ended_at: null,
      },
    ]);
  });
});
