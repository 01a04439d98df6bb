import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { EVALUATION_RETRY_DELAYS_SECONDS, MAX_EVALUATION_ATTEMPTS } from './aml.evaluator.js';
import { AmlDriver, cureFindings, poisonFindings } from './aml.test-support.js';
import { usd } from '../../../test/helpers/units.js';

describe('AML dead letters: an event whose evaluation keeps failing is never dropped', () => {
  const suite = useSuite(() => AmlDriver.start());

  const deadLetters = async (query = '') =>
    (await suite.current.t.backoffice('GET', `/aml/dead-letters${query}`)).json<{
      dead_letters: Record<string, unknown>[];
    }>().dead_letters;
  const inQueue = async (eventId: string) =>
    (
      await suite.current.t.db
        .selectFrom('aml_evaluation_queue')
        .select('event_id')
        .where('event_id', '=', eventId)
        .execute()
    ).length;
  const eventId = async (transactionId: string) =>
    (
      await suite.current.t.db
        .selectFrom('aml_events')
        .select('event_id')
        .where('transaction_id', '=', transactionId)
        .executeTakeFirstOrThrow()
    ).event_id;

  it('retries with backoff, dead-letters with an alert and a counter, and is re-driven by staff', async () => {
    const d = suite.current;
    await poisonFindings(d.t.db);
    const poisoned = d.newUser('poison');
    const healthy = d.newUser();
    const transactionId = await d.event(poisoned, 'deposit', usd(12_000));
    await d.event(healthy, 'deposit', usd(12_000));
    await d.pass();
    const id = await eventId(transactionId);

    // The healthy event is evaluated; the poisoned one left the queue for its retries, not for nowhere.
    expect(d.flagged(healthy).map((e) => e.data.rules_triggered)).toEqual([['R-009']]);
    expect(d.flagged(poisoned)).toEqual([]);
    expect(await inQueue(id)).toBe(0);
    expect(await deadLetters()).toEqual([]);

    // Each retry fails until the last, which dead-letters it.
    for (const [i, delay] of EVALUATION_RETRY_DELAYS_SECONDS.entries()) {
      expect(await deadLetters(), `before retry ${i + 1}`).toEqual([]);
      await d.t.advance(delay - 1);
      await d.pass();
      const job = await d.t.db
        .selectFrom('scheduled_jobs')
        .select('payload')
        .where('subject_id', '=', id)
        .executeTakeFirstOrThrow();
      expect(job.payload).toMatchObject({ attempts: i + 1 });
      await d.t.advance(1);
    }
    const [letter] = await deadLetters(`?tenant_id=${d.tenant.tenantId}`);
    expect(letter).toMatchObject({
      event_id: id,
      tenant_id: d.tenant.tenantId,
      transaction_id: transactionId,
      user_id: poisoned,
      event_type: 'deposit',
      attempts: MAX_EVALUATION_ATTEMPTS,
      last_error: expect.stringContaining('findings refused'),
      redriven_at: null,
    });
    const { alerts } = (await d.t.backoffice('GET', '/alerts?kind=aml_dead_letter')).json();
    expect(alerts).toMatchObject([{ kind: 'aml_dead_letter', subject: id }]);
    const metrics = (await d.t.backoffice('GET', '/metrics')).body;
    expect(metrics).toMatch(/^compliance_aml_dead_letters_total 1$/m);
    expect(await inQueue(id)).toBe(0);
    expect(
      await d.t.db.selectFrom('scheduled_jobs').select('job_id').where('subject_id', '=', id).execute(),
    ).toEqual([]);
    await d.pass();
    expect(d.flagged(poisoned)).toEqual([]);

    // A re-drive needs a reason; with the token its actor is 'backoffice'.
    const url = `/aml/dead-letters/${String(letter!.dead_letter_id)}/redrive`;
    expect((await d.t.backoffice('POST', url, {})).statusCode).toBe(400);

    // The fault is fixed; staff re-drive the event and it is evaluated like any other.
    await cureFindings(d.t.db);
    const redrive = await d.t.backoffice('POST', url, { reason: 'trigger fixed' });
    expect(redrive.statusCode).toBe(200);
    expect(redrive.json()).toMatchObject({
      event_id: id,
      redriven_by: 'backoffice',
      redriven_at: expect.any(String),
    });
    expect(await inQueue(id)).toBe(1);
    await d.pass();
    expect(d.flagged(poisoned).map((e) => e.data.rules_triggered)).toEqual([['R-009']]);
    expect(await deadLetters()).toEqual([]);
    expect(await deadLetters('?redriven=true')).toMatchObject([{ event_id: id, redriven_by: 'backoffice' }]);

    const again = await d.t.backoffice('POST', url, { reason: 'again' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      error: 'dead_letter_already_redriven',
      request_id: expect.any(String),
    });
    const missing = await d.t.backoffice('POST', '/aml/dead-letters/amldl_none/redrive', { reason: 'x' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe('dead_letter_not_found');

    const log = (await d.t.backoffice('GET', `/tenants/${d.tenant.tenantId}/audit-log`)).json().entries;
    expect(log.find((e: { action: string }) => e.action === 'aml.dead_letter_redriven')).toMatchObject({
      actor: 'backoffice',
      request_id: redrive.headers['x-request-id'],
      details: { event_id: id, reason: 'trigger fixed' },
    });
  });

  it('a retry that succeeds (the fault cured in time) evaluates the event and dead-letters nothing', async () => {
    const d = suite.current;
    await poisonFindings(d.t.db);
    const poisoned = d.newUser('poison');
    await d.event(poisoned, 'deposit', usd(12_000));
    await d.pass();
    expect(d.flagged(poisoned)).toEqual([]);
    await cureFindings(d.t.db);
    await d.t.advance(EVALUATION_RETRY_DELAYS_SECONDS[0]);
    await d.pass();
    expect(d.flagged(poisoned).map((e) => e.data.rules_triggered)).toEqual([['R-009']]);
    expect(await deadLetters()).toEqual([]);
  });
});
