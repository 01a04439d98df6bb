import { describe, expect, it } from 'vitest';
import { useSuite } from '../helpers/suite.js';
import { TestService } from '../helpers/test-service.js';
import { AmlDriver } from '../../src/areas/aml/aml.test-support.js';
import { usd } from '../helpers/units.js';

describe('GET /backoffice/v1/metrics', () => {
  const suite = useSuite(() => AmlDriver.start());

  it('gives the AML evaluation queue: the oldest waiting event against its deadline, how many wait, how many were evaluated', async () => {
    const d = suite.current;
    await d.event(d.newUser(), 'deposit', usd(20));
    await d.event(d.newUser(), 'deposit', usd(20));
    await d.t.advance(90);
    const queued = (await d.t.backoffice('GET', '/metrics')).body;
    expect(queued).toContain('compliance_aml_evaluation_oldest_seconds 90');
    expect(queued).toContain('compliance_aml_evaluation_waiting 2');
    await d.t.service.workers.tick();
    const evaluated = (await d.t.backoffice('GET', '/metrics')).body;
    expect(evaluated).toContain('compliance_aml_evaluation_oldest_seconds 0');
    expect(evaluated).toContain('compliance_aml_evaluation_waiting 0');
    expect(evaluated).toContain('compliance_aml_events_evaluated_total 2');
  });
});

describe('GET /backoffice/v1/metrics, the format', () => {
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

    // The evaluation queue's state, read at the scrape: nothing waits yet.
    expect(response.body).toContain('compliance_aml_evaluation_oldest_seconds 0');
    expect(response.body).toContain('compliance_aml_evaluation_waiting 0');
    expect(response.body).toContain('compliance_aml_evaluation_deadline_seconds 300');

    const anonymous = await t.inject({ method: 'GET', url: '/backoffice/v1/metrics' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.body).not.toContain('compliance_test_things_total');
  });
});
