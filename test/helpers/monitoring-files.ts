import fs from 'node:fs';
import { parser } from '@prometheus-io/lezer-promql';
import { Ajv } from 'ajv';
import GithubSlugger from 'github-slugger';
import { Type, type Static, type TSchema } from 'typebox';
import { parse as parseYaml } from 'yaml';

/**
 * The monitoring files an operator loads (deploy/prometheus, deploy/grafana), read and checked against their
 * shapes, and the metric names their PromQL reads.
 */

const file = (path: string) => new URL(`../../${path}`, import.meta.url);
export const ALERTS_PATH = 'deploy/prometheus/alerts.yml';
export const ALERT_TESTS_PATH = 'deploy/prometheus/alerts.test.yml';
export const DASHBOARD_PATH = 'deploy/grafana/dashboard.json';
export const OPERATIONS_DOC_PATH = 'docs/operations.md';

export const AlertRule = Type.Object({
  alert: Type.String({ pattern: '^Compliance[A-Za-z]+$' }),
  expr: Type.String({ minLength: 1 }),
  for: Type.Optional(Type.String({ pattern: '^[0-9]+[smh]$' })),
  labels: Type.Object({ severity: Type.Union([Type.Literal('page'), Type.Literal('ticket')]) }),
  annotations: Type.Object({
    summary: Type.String({ minLength: 1 }),
    runbook_url: Type.String({ pattern: '^docs/operations\\.md#[a-z0-9-]+$' }),
  }),
});
export type AlertRule = Static<typeof AlertRule>;

export const AlertRuleFile = Type.Object({
  groups: Type.Array(Type.Object({ name: Type.String(), rules: Type.Array(AlertRule, { minItems: 1 }) }), {
    minItems: 1,
  }),
});
export type AlertRuleFile = Static<typeof AlertRuleFile>;

/** promtool's unit-test file, as far as the checks read it. */
export const AlertTestFile = Type.Object({
  rule_files: Type.Array(Type.String(), { minItems: 1 }),
  tests: Type.Array(
    Type.Object({
      name: Type.String(),
      alert_rule_test: Type.Array(
        Type.Object({
          eval_time: Type.String(),
          alertname: Type.String(),
          exp_alerts: Type.Array(Type.Object({ exp_labels: Type.Record(Type.String(), Type.String()) })),
        }),
      ),
    }),
  ),
});
export type AlertTestFile = Static<typeof AlertTestFile>;

const Target = Type.Object({
  expr: Type.String({ minLength: 1 }),
  datasource: Type.Object({ type: Type.Literal('prometheus'), uid: Type.Literal('${datasource}') }),
});
export const Dashboard = Type.Object({
  title: Type.String(),
  uid: Type.String(),
  schemaVersion: Type.Number(),
  templating: Type.Object({
    list: Type.Array(Type.Object({ name: Type.String(), type: Type.String(), query: Type.Unknown() })),
  }),
  panels: Type.Array(
    Type.Union([
      Type.Object({ type: Type.Literal('row'), title: Type.String() }),
      Type.Object({
        type: Type.Union([Type.Literal('timeseries'), Type.Literal('stat')]),
        title: Type.String({ minLength: 1 }),
        targets: Type.Array(Target, { minItems: 1 }),
      }),
    ]),
  ),
});
export type Dashboard = Static<typeof Dashboard>;

const ajv = new Ajv({ allErrors: true });

/** `value` checked against `schema`, or an error naming every mismatch. */
function checked<S extends TSchema>(schema: S, value: unknown, what: string): Static<S> {
  const validate = ajv.compile(schema);
  if (!validate(value)) throw new Error(`${what}: ${ajv.errorsText(validate.errors)}`);
  return value as Static<S>;
}

const read = (path: string) => fs.readFileSync(file(path), 'utf8');

export const alertRules = (): AlertRule[] =>
  checked(AlertRuleFile, parseYaml(read(ALERTS_PATH)), ALERTS_PATH).groups.flatMap((group) => group.rules);

export const alertTests = (): AlertTestFile =>
  checked(AlertTestFile, parseYaml(read(ALERT_TESTS_PATH)), ALERT_TESTS_PATH);

export const dashboard = (): Dashboard =>
  checked(Dashboard, JSON.parse(read(DASHBOARD_PATH)), DASHBOARD_PATH);

/** Every panel query of the dashboard, with its panel's title. */
export const dashboardQueries = (board: Dashboard = dashboard()) =>
  board.panels.flatMap((panel) =>
    'targets' in panel ? panel.targets.map((target) => ({ panel: panel.title, expr: target.expr })) : [],
  );

/** The anchors GitHub gives the headings of docs/operations.md (headings inside code blocks are not headings). */
export function operationsAnchors(): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  let inCode = false;
  for (const line of read(OPERATIONS_DOC_PATH).split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) inCode = !inCode;
    const heading = inCode ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) anchors.add(slugger.slug(heading[1]!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')));
  }
  return anchors;
}

/** Grafana's interval variables, which PromQL does not know, replaced by a duration for parsing. */
const GRAFANA_INTERVALS = /\$__(rate_interval|interval|range)\b/g;

/**
 * The metric names a PromQL expression selects (by the Prometheus project's own grammar), `up` aside: Prometheus
 * makes it, not the service. Throws on an expression that does not parse.
 */
export function metricNames(expr: string): string[] {
  const query = expr.replace(GRAFANA_INTERVALS, '5m');
  const names = new Set<string>();
  parser.parse(query).iterate({
    enter(node) {
      if (node.type.isError) throw new Error(`PromQL does not parse at ${node.from}: ${expr}`);
      if (node.name === 'Identifier' && node.node.parent?.name === 'VectorSelector')
        names.add(query.slice(node.from, node.to));
    },
  });
  names.delete('up');
  return [...names];
}

/** `# TYPE <name> <type>` of an exposition in the Prometheus text format: every family, with samples or not. */
export function exposedFamilies(exposition: string): Map<string, string> {
  return new Map(
    [...exposition.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((match) => [match[1]!, match[2]!] as const),
  );
}

/**
 * Whether a name a query selects is exposed: itself, or a histogram's (or summary's) _bucket, _sum or _count
 * series of an exposed family.
 */
export function isExposed(name: string, families: Map<string, string>): boolean {
  if (families.has(name)) return true;
  const series = /^(.+)_(bucket|sum|count)$/.exec(name);
  const type = series ? families.get(series[1]!) : undefined;
  return type === 'histogram' || (type === 'summary' && series![2] !== 'bucket');
}
