import { describe, expect, it } from 'vitest';
import { useSuite } from '../helpers/suite.js';
import { TestService } from '../helpers/test-service.js';

describe('GET /backoffice/v1/metrics', () => {
  const suite = useSuite(() => TestService.start());

  it('answers the counters in the Prometheus text format, to staff only', async () => {
    const t = suite.current;
    t.platform.metrics
      .counter('compliance_test_things_total', 'Things a test counted', ['kind'])
      .inc({ kind: 'a' }, 2);
    const response = await t.backoffice('GET', '/metrics');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.body).toContain('# TYPE compliance_test_things_total counter');
    expect(response.body).toContain('compliance_test_things_total{kind="a"} 2');

    const anonymous = await t.inject({ method: 'GET', url: '/backoffice/v1/metrics' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.body).not.toContain('compliance_test_things_total');
  });
});
