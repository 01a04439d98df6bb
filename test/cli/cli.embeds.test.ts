import { describe, expect, it } from 'vitest';
import { createSession, requestCode } from '../../src/areas/embeds/embeds.test-support.js';
import { cliFor } from '../helpers/cli.js';
import { useSuite } from '../helpers/suite.js';
import { TestService } from '../helpers/test-service.js';

/** The embeds' staff commands through the built CLI: framing origins, and the mail a sandbox keeps. */
describe('compliance CLI: embed origins and the mail outbox', () => {
  const suite = useSuite(async (own) => {
    // No SMTP server: the embedded default, where mail stays in the outbox for the staff to read.
    const t = own(await TestService.start());
    const cli = await cliFor(t);
    expect((await cli('help')).code).toBe(0);
    return { t, cli };
  });

  it("sets and clears the origins allowed to frame a tenant's embeds, refusing what is not an origin", async () => {
    const { t, cli } = suite.current;
    const tenant = await t.createTenant();
    const set = await cli(
      'embed-origins',
      'set',
      tenant.tenantId,
      '--origins',
      'https://casino.example, https://www.casino.example:8443',
    );
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain('embed origins: https://casino.example, https://www.casino.example:8443');
    const bad = await cli(
      'embed-origins',
      'set',
      tenant.tenantId,
      '--origins',
      'https://casino.example/account',
    );
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('is not an origin');
    const cleared = await cli('embed-origins', 'set', tenant.tenantId, '--origins', '');
    expect(cleared.stdout).toContain('embed origins: (none: embeds cannot be framed)');
  }, 90_000);

  it('lists the mail kept in the outbox, with its code only on the embedded sandbox', async () => {
    const { t, cli } = suite.current;
    const tenant = await t.createTenant({ name: 'Sandbox Casino' });
    const session = await createSession(t, tenant, {
      kind: 'self_exclusion',
      user_id: 'player-1',
      email: 'player.one@example.com',
    });
    expect((await requestCode(t, session.token, 'duration_24h')).statusCode).toBe(202);
    const listed = await cli('mail', 'list');
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(
      /mail_\w+ {2}pending {2}attempts=0 {2}embed_code {2}to player\.one@example\.com/,
    );
    const mailId = /(mail_\w+)/.exec(listed.stdout)![1]!;
    const shown = await cli('mail', 'show', mailId);
    // A one-machine sandbox works without a mail server; on PostgreSQL a code is for its player alone.
    if (t.config.databaseUrl) {
      expect(listed.stdout).not.toMatch(/Your confirmation code is \d{6}\./);
      expect(shown.stdout).not.toContain("Enter it on Sandbox Casino's page");
    } else {
      expect(listed.stdout).toContain('Your confirmation code');
      expect(listed.stdout).toMatch(/Your confirmation code is \d{6}\./);
      expect(shown.stdout).toContain("Enter it on Sandbox Casino's page");
    }
  }, 90_000);
});
