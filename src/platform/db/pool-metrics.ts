import type { Metrics } from '../metrics.js';
import type { Database } from './database.js';

/**
 * The database connections of this process, summed over the processes under the supervisor (each has its own pool):
 * in use and at most (PostgreSQL: the pg pool; embedded PGlite: its one connection), and requests waiting for one.
 */
export function registerPoolMetrics(metrics: Metrics, database: Pick<Database, 'connections'>): void {
  const sum = { aggregator: 'sum' } as const;
  metrics.gauge(
    'compliance_db_pool_connections_in_use',
    'Database connections checked out of the pool',
    () => database.connections().inUse,
    sum,
  );
  metrics.gauge(
    'compliance_db_pool_connections_max',
    'Database connections the pool may open',
    () => database.connections().max,
    sum,
  );
  metrics.gauge(
    'compliance_db_pool_waiting_requests',
    'Requests waiting for a database connection',
    () => database.connections().waiting,
    sum,
  );
}
