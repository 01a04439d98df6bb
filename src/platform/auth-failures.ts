import type { Counter } from 'prom-client';
import type { Metrics } from './metrics.js';
import type { Surface } from './request-metrics.js';

/**
 * Why an authentication failed, per surface: what each surface's authentication tells apart (the tenant API's are
 * the security log's reasons). A bounded set: the metric's reason label takes nothing else.
 */
export const AUTH_FAILURE_REASONS = {
  api: ['missing_header', 'malformed', 'unknown_key', 'revoked', 'tenant_suspended', 'environment_mismatch'],
  backoffice: ['missing_token', 'invalid_token'],
  console: ['sign_in_failed'],
  embed: ['invalid_token'],
} as const satisfies Record<Surface, readonly string[]>;

export type AuthFailureReason<S extends Surface> = (typeof AUTH_FAILURE_REASONS)[S][number];

const counters = new WeakMap<Metrics, Counter<'surface' | 'reason'>>();

/**
 * compliance_auth_failures_total, with every surface's reasons at 0 from the start (a rate over a series is defined
 * before its first failure).
 */
export function authFailuresCounter(metrics: Metrics): Counter<'surface' | 'reason'> {
  let counter = counters.get(metrics);
  if (!counter) {
    counter = metrics.counter(
      'compliance_auth_failures_total',
      'Failed authentications, by surface and reason',
      ['surface', 'reason'],
      Object.entries(AUTH_FAILURE_REASONS).flatMap(([surface, reasons]) =>
        reasons.map((reason) => ({ surface, reason })),
      ),
    );
    counters.set(metrics, counter);
  }
  return counter;
}

/**
 * Counts one failed authentication where a surface decides it, a failure past the per-address limit (answered 429,
 * written nowhere) included: a flood of bad credentials shows.
 */
export function countAuthFailure<S extends Surface>(
  metrics: Metrics,
  surface: S,
  reason: AuthFailureReason<S>,
): void {
  authFailuresCounter(metrics).inc({ surface, reason });
}
