import { describe, expect, it } from 'vitest';
import { useSuite } from '../helpers/suite.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { TEST_CLOCK_START, TestService } from '../helpers/test-service.js';

describe('where the test clock starts', () => {
  it('reads COMPLIANCE_TEST_CLOCK_START as an instant, and leaves it unset by default', () => {
    expect(loadConfig({}).testClockStart).toBeUndefined();
    expect(
      loadConfig({ COMPLIANCE_TEST_CLOCK_START: '2030-01-01T12:00:00Z' }).testClockStart?.toISOString(),
    ).toBe('2030-01-01T12:00:00.000Z');
  });

  it('refuses a value that is not an instant, naming the variable', () => {
    expect(() => loadConfig({ COMPLIANCE_TEST_CLOCK_START: 'next tuesday' })).toThrow(ConfigError);
    expect(() => loadConfig({ COMPLIANCE_TEST_CLOCK_START: 'next tuesday' })).toThrow(
      /COMPLIANCE_TEST_CLOCK_START must be an ISO 8601 instant/,
    );
  });

  describe('a test service', () => {
    const suite = useSuite(() => TestService.start());

    it('starts at the fixed instant, whatever the date the suite runs, and moves only when advanced', async () => {
      const t = suite.current;
      const before = await t.backoffice('GET', '/clock');
      expect(before.json<{ now: string }>().now).toBe(TEST_CLOCK_START.toISOString());
      expect(await t.advance(90)).toBe('2030-01-01T12:01:30.000Z');
    });
  });
});
