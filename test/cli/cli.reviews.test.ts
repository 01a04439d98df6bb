import { describe, expect, it } from 'vitest';
import { useSuite } from '../helpers/suite.js';
import { cliFor } from '../helpers/cli.js';
import { TestService } from '../helpers/test-service.js';

describe('compliance sanctions overdue, kyc overdue, sanctions rescreen-user and rescreen-status', () => {
  const suite = useSuite(async (own) => {
    const t = own(await TestService.start());
    return { t, tenant: await t.createTenant(), cli: await cliFor(t) };
  });

  const screen = (user_id: string, first_name: string) => {
    const { t, tenant } = suite.current;
    return t.api(tenant.apiKey, 'POST', '/v1/sanctions/screen', {
      user_id,
      first_name,
      last_name: 'Lovelace',
      date_of_birth: '1990-12-10',
      nationality: 'GB',
      email: 'ada@example.com',
    });
  };

  it('lists overdue sanctions hits and KYC reviews once past their due time', async () => {
    const { t, tenant, cli } = suite.current;
    const hit = (await screen('cli-hit', 'SanctionedSam')).json();
    const start = await t.api(tenant.apiKey, 'POST', '/v1/kyc/start', {
      user_id: 'cli-kyc',
      email: 'p@example.com',
      phone: '+15555550100',
      withdrawal_amount_cents: 30_000,
      currency: 'USD',
    });
    const token = start.json().vendor_access_token as string;
    await t.inject({ method: 'POST', url: `/v1/kyc/sandbox-vendor/${token}/begin` });
    await t.inject({ method: 'POST', url: `/v1/kyc/sandbox-vendor/${token}/submit` });

    expect((await cli('sanctions', 'overdue')).stdout.trim()).toBe('No overdue sanctions hits.');
    expect((await cli('kyc', 'overdue')).stdout.trim()).toBe('No overdue KYC reviews.');
    await t.advance(48 * 3600);
    const sanctions = await cli('sanctions', 'overdue');
    expect(sanctions.code, sanctions.stderr).toBe(0);
    expect(sanctions.stdout).toContain(`${hit.case_id}  ${tenant.tenantId}  cli-hit`);
    const kyc = await cli('kyc', 'overdue', '--limit', '10');
    expect(kyc.code, kyc.stderr).toBe(0);
    expect(kyc.stdout).toContain(`${start.json().kyc_check_id}  ${tenant.tenantId}  cli-kyc  tier_1`);
  });

  it('re-screens no single user (a person does, in the console), and shows the quarterly runs', async () => {
    const { tenant, cli } = suite.current;
    await screen('cli-clear', 'Ada');
    const refused = await cli('sanctions', 'rescreen-user', tenant.tenantId, 'cli-clear', '--reason', 'x');
    expect(refused.code).toBe(2);
    const status = await cli('sanctions', 'rescreen-status');
    expect(status.stdout.trim()).toBe('No quarterly re-screen has run.');
  });
});
