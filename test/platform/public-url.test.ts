import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { createSession } from '../../src/areas/embeds/embeds.test-support.js';
import { useSuite } from '../helpers/suite.js';
import { TenantDriver } from '../helpers/tenant-driver.js';

const POSTGRES = {
  DATABASE_URL: 'postgres://compliance@db.internal:5432/compliance',
  COMPLIANCE_SECRETS_KEY: 'a'.repeat(64),
};

describe('PUBLIC_URL, the address every link the service hands out starts with', () => {
  it('is required in production (with DATABASE_URL), with a message that says what to set', () => {
    expect(() => loadConfig(POSTGRES)).toThrow(ConfigError);
    expect(() => loadConfig(POSTGRES)).toThrow(
      /PUBLIC_URL is required with DATABASE_URL: the address browsers reach the service by/,
    );
    expect(loadConfig({ ...POSTGRES, PUBLIC_URL: 'https://compliance.example.com/' }).publicUrl).toBe(
      'https://compliance.example.com',
    );
    expect(() => loadConfig({ ...POSTGRES, PUBLIC_URL: 'compliance.example.com' })).toThrow(
      /PUBLIC_URL must be an http:\/\/ or https:\/\/ URL/,
    );
  });

  it('defaults on the embedded sandbox to the address it listens on, loopback for an unspecified host', () => {
    expect(loadConfig({}).publicUrl).toBe('http://127.0.0.1:8080');
    expect(loadConfig({ HOST: '0.0.0.0', PORT: '9000' }).publicUrl).toBe('http://127.0.0.1:9000');
    expect(loadConfig({ HOST: '::' }).publicUrl).toBe('http://[::1]:8080');
    expect(loadConfig({ HOST: 'localhost', PORT: '3000' }).publicUrl).toBe('http://localhost:3000');
  });

  describe('an embed session', () => {
    const suite = useSuite(() =>
      TenantDriver.start({ config: { publicUrl: 'https://compliance.example.com' } }),
    );

    it("is handed out on PUBLIC_URL, whatever Host or X-Forwarded-Host the operator's request names", async () => {
      const { t, tenant } = suite.current;
      const response = await t.inject({
        method: 'POST',
        url: '/v1/embeds/sessions',
        headers: {
          authorization: `Bearer ${tenant.apiKey}`,
          host: 'attacker.example',
          'x-forwarded-host': 'attacker.example',
          'x-forwarded-proto': 'http',
        },
        payload: { kind: 'self_exclusion', user_id: 'player-1', email: 'player@example.com' },
      });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json<{ url: string }>().url).toMatch(
        /^https:\/\/compliance\.example\.com\/embeds\/[A-Za-z0-9_-]{43}$/,
      );
      const plain = await createSession(t, tenant, {
        kind: 'self_exclusion',
        user_id: 'player-2',
        email: 'player2@example.com',
      });
      expect(plain.url.startsWith('https://compliance.example.com/embeds/')).toBe(true);
    });
  });
});
