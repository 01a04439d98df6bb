import { expect, it } from 'vitest';
import {
  ALERTS_PATH,
  alertRules,
  DASHBOARD_PATH,
  dashboardQueries,
  exposedFamilies,
  isExposed,
  metricNames,
} from '../helpers/monitoring-files.js';
import { useSuite } from '../helpers/suite.js';
import { TestService } from '../helpers/test-service.js';

const suite = useSuite(() => TestService.start());

it('exposes every metric an alert or a dashboard panel reads (a family with no samples yet included)', async () => {
  const scrape = await suite.current.backoffice('GET', '/metrics');
  expect(scrape.statusCode).toBe(200);
  const families = exposedFamilies(scrape.body);

  const readers = new Map<string, Set<string>>();
  const note = (name: string, reader: string) =>
    readers.set(name, (readers.get(name) ?? new Set()).add(reader));
  for (const rule of alertRules())
    for (const name of metricNames(rule.expr)) note(name, `${ALERTS_PATH} ${rule.alert}`);
  for (const query of dashboardQueries())
    for (const name of metricNames(query.expr)) note(name, `${DASHBOARD_PATH} "${query.panel}"`);

  const missing = [...readers]
    .filter(([name]) => !isExposed(name, families))
    .map(([name, by]) => `${name} (read by ${[...by].join(', ')})`)
    .sort();
  expect(missing).toEqual([]);
});
