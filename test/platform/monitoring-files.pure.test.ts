import { describe, expect, it } from 'vitest';
import {
  ALERTS_PATH,
  alertRules,
  alertTests,
  dashboard,
  dashboardQueries,
  exposedFamilies,
  isExposed,
  metricNames,
  operationsAnchors,
} from '../helpers/monitoring-files.js';

describe('deploy/prometheus/alerts.yml', () => {
  it('gives every alert a severity (page or ticket), a summary and a runbook link, under a name of its own', () => {
    // alertRules() checks each rule against its shape: the severity, the summary and a docs/operations.md link.
    const rules = alertRules();
    expect(rules.length).toBeGreaterThan(0);
    expect(new Set(rules.map((rule) => rule.alert)).size).toBe(rules.length);
  });

  it('links every runbook to a heading of docs/operations.md that exists, one runbook per alert', () => {
    const anchors = operationsAnchors();
    const links = alertRules().map((rule) => rule.annotations.runbook_url.split('#')[1]!);
    expect(links.filter((anchor) => !anchors.has(anchor))).toEqual([]);
    expect(new Set(links).size).toBe(links.length);
  });

  it('reads at least one metric of the service in every expression, each of which parses', () => {
    for (const rule of alertRules()) {
      const names = metricNames(rule.expr);
      if (rule.alert !== 'ComplianceDown') expect(names, rule.alert).not.toEqual([]);
    }
  });

  it('has promtool cases for every alert: one where it fires and one where it must stay quiet', () => {
    const tests = alertTests();
    expect(tests.rule_files).toEqual([ALERTS_PATH.split('/').pop()]);
    const cases = tests.tests.flatMap((test) => test.alert_rule_test);
    for (const { alert } of alertRules()) {
      const own = cases.filter((c) => c.alertname === alert);
      expect(
        own.some((c) => c.exp_alerts.length > 0),
        `${alert} fires in a case`,
      ).toBe(true);
      expect(
        own.some((c) => c.exp_alerts.length === 0),
        `${alert} stays quiet in a case`,
      ).toBe(true);
    }
  });
});

describe('deploy/grafana/dashboard.json', () => {
  it('imports into a current Grafana with the Prometheus data source chosen by a variable', () => {
    const board = dashboard();
    expect(board.schemaVersion).toBeGreaterThanOrEqual(39);
    expect(board.templating.list).toContainEqual(
      expect.objectContaining({ name: 'datasource', type: 'datasource', query: 'prometheus' }),
    );
  });

  it('queries at least one metric of the service in every panel, each query parsing as PromQL', () => {
    for (const query of dashboardQueries()) expect(metricNames(query.expr), query.panel).not.toEqual([]);
  });

  it('shows the golden signals of the hot paths and every queue of the service', () => {
    const used = new Set(dashboardQueries().flatMap((query) => metricNames(query.expr)));
    for (const name of [
      'compliance_http_request_duration_seconds_count',
      'compliance_http_request_duration_seconds_bucket',
      'compliance_aml_evaluation_waiting',
      'compliance_aml_evaluation_oldest_seconds',
      'compliance_webhook_backlog_events',
      'compliance_webhook_oldest_undelivered_seconds',
      'compliance_webhook_destinations',
      'compliance_review_cases_open',
      'compliance_review_cases_overdue',
      'compliance_scheduler_jobs_due',
      'compliance_scheduler_jobs_late',
      'compliance_mail_outbox_depth',
      'compliance_db_pool_connections_in_use',
      'compliance_db_pool_waiting_requests',
      'compliance_sanctions_list_published_age_seconds',
      'compliance_sanctions_list_fetched_age_seconds',
      'compliance_sanctions_screening_backlog',
    ])
      expect(used, name).toContain(name);
  });
});

describe('reading metric names out of PromQL', () => {
  it("takes the selected metrics, not functions, keywords, label names or Prometheus's own up", () => {
    expect(
      metricNames(
        'histogram_quantile(0.99, sum by (le, route) (rate(a_seconds_bucket{route=~"/v1/.+"}[$__rate_interval])))' +
          ' > on (job) group_left max without (instance) (b_total offset 5m) or absent(up{job="compliance"})',
      ),
    ).toEqual(['a_seconds_bucket', 'b_total']);
  });

  it('refuses an expression that does not parse', () => {
    expect(() => metricNames('sum(rate(a_total[5m])')).toThrow(/does not parse/);
  });

  it("counts a histogram's bucket, sum and count series as its family, and nothing else's", () => {
    const families = exposedFamilies(
      '# HELP a_seconds A.\n# TYPE a_seconds histogram\n# HELP b B.\n# TYPE b gauge\nb 1\n',
    );
    expect(
      ['a_seconds_bucket', 'a_seconds_sum', 'a_seconds_count', 'b'].every((n) => isExposed(n, families)),
    ).toBe(true);
    expect(isExposed('b_count', families)).toBe(false);
    expect(isExposed('c', families)).toBe(false);
  });
});
