import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { useSuite } from '../helpers/suite.js';
import { cliFor, compliance } from '../helpers/cli.js';
import { TestService } from '../helpers/test-service.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';

describe('compliance CLI', () => {
  const suite = useSuite(async (own) => {
    const t = own(await TestService.start());
    const receiver = own(await WebhookReceiver.start());
    const cli = await cliFor(t);
    // The first npx run of a local bin can be slow (npx links the package into its cache); pay that here.
    const help = await cli('help');
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toContain('Usage: compliance');
    return { t, receiver, cli };
  });

  it('creates a tenant, registers its webhook and delivers a signed ping', async () => {
    const { t, receiver, cli } = suite.current;
    const created = await cli('tenant', 'create', '--name', 'Acme', '--env', 'sandbox', '--json');
    expect(created.code).toBe(0);
    const tenant = JSON.parse(created.stdout) as {
      tenant_id: string;
      signing_secret: string;
      api_key: string;
    };
    expect(tenant.tenant_id).toMatch(/^ten_/);
    expect(tenant.signing_secret).toMatch(/^whsec_/);

    const hook = await cli('webhook', 'set', tenant.tenant_id, '--url', receiver.url);
    expect(hook.code).toBe(0);
    expect(hook.stdout).toContain(receiver.url);

    const ping = await cli('webhook', 'ping', tenant.tenant_id);
    expect(ping.code).toBe(0);
    expect(ping.stdout).toMatch(/Enqueued event evt_/);

    await t.deliverWebhooks();
    const verified = receiver.verified(tenant.signing_secret);
    expect(verified).toHaveLength(1);
    expect(verified[0]).toEqual({
      event: 'ping',
      event_id: expect.stringMatching(/^evt_/),
      timestamp: expect.any(String),
      data: { tenant_id: tenant.tenant_id },
    });
    expect(receiver.of('ping')).toHaveLength(1);
  });

  it('prints a human summary without --json, warning that the credentials are shown once', async () => {
    const { cli } = suite.current;
    const created = await cli('tenant', 'create', '--name', 'Beta', '--env', 'live');
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/Created tenant ten_\w+ \(Beta\)/);
    expect(created.stdout).toMatch(/API key: +\S+/);
    expect(created.stdout).toMatch(/signing secret: +whsec_/);
    expect(created.stdout).toContain('shown only once');
  });

  it('rotates a signing secret: both secrets verify during the overlap, the new one only after it', async () => {
    const { t, receiver, cli } = suite.current;
    const created = await cli('tenant', 'create', '--name', 'Gamma', '--env', 'sandbox', '--json');
    const tenant = JSON.parse(created.stdout) as { tenant_id: string; signing_secret: string };
    await cli('webhook', 'set', tenant.tenant_id, '--url', receiver.url);

    const rotated = await cli('webhook', 'rotate-secret', tenant.tenant_id, '--overlap-hours', '2');
    expect(rotated.code, rotated.stderr).toBe(0);
    expect(rotated.stdout).toContain(`Rotated the signing secret of ${tenant.tenant_id}`);
    expect(rotated.stdout).toMatch(/the old secret also signs every delivery until \S+/);
    expect(rotated.stdout).toContain('shown only once');
    const secret = /new signing secret: (whsec_\S+)/.exec(rotated.stdout)![1]!;

    const mine = () => receiver.received.filter((r) => r.envelope.data.tenant_id === tenant.tenant_id);
    const verifies = (s: string) => {
      const last = mine().at(-1)!;
      try {
        new Webhook(s).verify(last.body, last.headers as Record<string, string>);
        return true;
      } catch {
        return false;
      }
    };
    await cli('webhook', 'ping', tenant.tenant_id);
    await t.deliverWebhooks();
    expect([verifies(tenant.signing_secret), verifies(secret)]).toEqual([true, true]);

    await t.advance(2 * 3600);
    await cli('webhook', 'ping', tenant.tenant_id);
    await t.deliverWebhooks();
    expect(mine()).toHaveLength(2);
    expect([verifies(tenant.signing_secret), verifies(secret)]).toEqual([false, true]);

    const bad = await cli('webhook', 'rotate-secret', tenant.tenant_id, '--overlap-hours', 'soon');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--overlap-hours must be a whole number');
  });

  it('refuses to run without a back-office token', async () => {
    const { cli } = suite.current;
    const result = await compliance(['tenant', 'list'], {
      ...cli.env,
      COMPLIANCE_BACKOFFICE_TOKEN: undefined,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('COMPLIANCE_BACKOFFICE_TOKEN is not set');
  });

  it('reports an unknown tenant with the error code and request id, exit 1', async () => {
    const { cli } = suite.current;
    const result = await cli('tenant', 'show', 'ten_doesnotexist');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/error: tenant_not_found: .+ \(request req_\w+\)/);
  });

  it('exits 2 on a command line it does not understand', async () => {
    const { cli } = suite.current;
    const unknown = await cli('tenant', 'explode');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command');
    const missingFlag = await cli('key', 'create', 'ten_x');
    expect(missingFlag.code).toBe(2);
    expect(missingFlag.stderr).toContain('--role is required');
  });
});
