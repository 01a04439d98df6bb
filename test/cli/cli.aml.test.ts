import { describe, expect, it } from 'vitest';
import { useSuite } from '../helpers/suite.js';
import { REVIEW_SLA_SECONDS } from '../../src/areas/aml/aml.case-rules.js';
import { EVALUATION_RETRY_DELAYS_SECONDS } from '../../src/areas/aml/aml.evaluator.js';
import { AmlDriver, cureFindings, poisonFindings } from '../../src/areas/aml/aml.test-support.js';
import { usd } from '../helpers/units.js';
import { cliFor } from '../helpers/cli.js';

describe('compliance aml overdue, dead-letters and redrive (the built CLI)', () => {
  const suite = useSuite(async (own) => {
    const d = own(await AmlDriver.start());
    return { d, cli: await cliFor(d.t) };
  });

  it('lists overdue AML cases, oldest-due first', async () => {
    const { d, cli } = suite.current;
    expect((await cli('aml', 'overdue')).stdout).toContain('No overdue AML cases.');
    const first = (await d.screen(d.screenBody(d.newUser(), usd(10_000)))).json().case_id;
    await d.t.advance(60);
    const second = (await d.screen(d.screenBody(d.newUser(), usd(10_000)))).json().case_id;
    await d.t.advance(REVIEW_SLA_SECONDS);
    const listed = await cli('aml', 'overdue');
    expect(listed.code, listed.stderr).toBe(0);
    const lines = listed.stdout.trim().split('\n');
    expect(lines.map((line) => line.split(/\s+/)[1])).toEqual([first, second]);
    expect(lines[0]).toContain('under_review  screen_hold');
  });

  it('lists dead letters and re-drives one', async () => {
    const { d, cli } = suite.current;
    await poisonFindings(d.t.db);
    const user = d.newUser('poison');
    const transactionId = await d.event(user, 'deposit', usd(12_000));
    await d.pass();
    for (const delay of EVALUATION_RETRY_DELAYS_SECONDS) await d.t.advance(delay);
    await cureFindings(d.t.db);

    const listed = await cli('aml', 'dead-letters');
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(`deposit ${transactionId}  attempts=4`);
    const deadLetterId = listed.stdout.split(/\s+/)[0]!;
    expect(deadLetterId).toMatch(/^amldl_/);

    const missing = await cli('aml', 'redrive', deadLetterId);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--reason is required');
    const redriven = await cli('aml', 'redrive', deadLetterId, '--reason', 'trigger fixed');
    expect(redriven.code, redriven.stderr).toBe(0);
    expect(redriven.stdout).toMatch(new RegExp(`^Re-drove ${deadLetterId} .*queued for evaluation`));
    await d.pass();
    expect(d.flagged(user).map((e) => e.data.rules_triggered)).toEqual([['R-009']]);
    expect((await cli('aml', 'dead-letters')).stdout).toContain('No AML dead letters.');
  });
});
