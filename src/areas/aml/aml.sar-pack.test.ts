import { describe, expect, it } from 'vitest';
import { asStaff, createStaffMember, signInAs } from '../../../test/helpers/staff-driver.js';
import { useSuite } from '../../../test/helpers/suite.js';
import { AML_RULES } from './aml.rules.js';
import { AmlDriver } from './aml.test-support.js';
import { usd } from '../../../test/helpers/units.js';

describe('GET /backoffice/v1/aml/cases/{case_id}/sar-pack', () => {
  const suite = useSuite(async (own) => {
    const d = own(await AmlDriver.start());
    const reviewer = await signInAs(
      d.t,
      await createStaffMember(d.t, 'reviewer', {
        displayName: 'Rita Reviewer',
        email: 'rita@compliance.example',
      }),
    );
    const supervisor = await signInAs(
      d.t,
      await createStaffMember(d.t, 'supervisor', {
        displayName: 'Sam Supervisor',
        email: 'sam@compliance.example',
      }),
    );
    const regulator = await signInAs(d.t, await createStaffMember(d.t, 'regulator'));
    return { d, reviewer, supervisor, regulator };
  });

  /** A withdrawal of USD 10,000 held at the screen: a case under review. */
  async function heldCase() {
    const { d } = suite.current;
    const user = d.newUser();
    const screen = (await d.screen(d.screenBody(user, usd(10_000)))).json();
    expect(screen.decision).toBe('hold');
    return { user, caseId: screen.case_id as string, withdrawalId: screen.withdrawal_id as string };
  }

  it('gives the MLRO one file: the case, its rules with descriptions, transactions, KYC, screening and who decided', async () => {
    const { d, reviewer, supervisor } = suite.current;
    const { user, caseId } = await heldCase();
    const proposed = await asStaff(d.t, reviewer, 'POST', `/aml/cases/${caseId}/decision`, {
      action: 'escalate',
      reason: 'structuring pattern; SAR needed',
    });
    expect(proposed.statusCode, proposed.body).toBe(200);
    const approved = await asStaff(d.t, supervisor, 'POST', `/aml/cases/${caseId}/proposal/approve`, {});
    expect(approved.statusCode, approved.body).toBe(200);

    const response = await asStaff(d.t, supervisor, 'GET', `/aml/cases/${caseId}/sar-pack`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-disposition']).toBe(`attachment; filename="sar-pack-${caseId}.json"`);
    const pack = response.json();
    expect(pack.pack_version).toBe('sar-pack/1.0');
    expect(pack.case).toMatchObject({
      case_id: caseId,
      user_id: user,
      status: 'escalated',
      origin: 'screen_hold',
    });
    expect(pack.case.rules.length).toBeGreaterThan(0);
    for (const rule of pack.case.rules) {
      expect(rule.description).toBe(AML_RULES[rule.code as keyof typeof AML_RULES].description);
    }
    expect(pack.kyc).toEqual({ verified_tier: 'tier_0', verified_at: null });
    expect(pack.screening).toEqual({ status: 'not_screened' });
    expect(
      pack.decisions.map(
        (e: { action: string; by: { display_name: string; email: string; role: string } }) => [
          e.action,
          e.by.display_name,
          e.by.email,
          e.by.role,
        ],
      ),
    ).toEqual([
      ['aml.decision_proposed', 'Rita Reviewer', 'rita@compliance.example', 'reviewer'],
      ['aml.decision_approved', 'Sam Supervisor', 'sam@compliance.example', 'supervisor'],
      ['aml.case_escalate', 'Rita Reviewer', 'rita@compliance.example', 'reviewer'],
    ]);
    expect(pack.decisions[2].details).toMatchObject({
      reason: 'structuring pattern; SAR needed',
      to: 'escalated',
    });
    // The download itself is on the record, naming who took the file.
    const downloads = await d.t.db
      .selectFrom('audit_log')
      .select(['actor', 'tenant_id', 'details'])
      .where('action', '=', 'aml.sar_pack_downloaded')
      .execute();
    expect(downloads).toEqual([
      { actor: supervisor.member.staffId, tenant_id: d.tenant.tenantId, details: { case_id: caseId } },
    ]);
  });

  it('is staff-only, and only for an escalated case', async () => {
    const { d, regulator } = suite.current;
    const { caseId } = await heldCase();
    const notEscalated = await d.t.backoffice('GET', `/aml/cases/${caseId}/sar-pack`);
    expect([notEscalated.statusCode, notEscalated.json().error]).toEqual([409, 'case_not_escalated']);
    const missing = await d.t.backoffice('GET', '/aml/cases/case_nothing/sar-pack');
    expect([missing.statusCode, missing.json().error]).toEqual([404, 'case_not_found']);
    const asRegulator = await asStaff(d.t, regulator, 'GET', `/aml/cases/${caseId}/sar-pack`);
    expect([asRegulator.statusCode, asRegulator.json().error]).toEqual([403, 'forbidden']);
    const asTenant = await d.t.api(d.tenant.apiKey, 'GET', `/backoffice/v1/aml/cases/${caseId}/sar-pack`);
    expect(asTenant.statusCode).toBe(401);
  });
});
