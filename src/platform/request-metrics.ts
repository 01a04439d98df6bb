import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Metrics } from './metrics.js';

/** The surfaces of the service a request can reach, as the metrics name them. */
export type Surface = 'api' | 'backoffice' | 'console' | 'embed';

/**
 * Which surface a path belongs to, first match wins: the embeds' JSON endpoints (under /v1, opened by a session's
 * token from a player's browser) are the embed's, not the tenant API's; the API's documentation is the API's.
 */
const SURFACES: ReadonlyArray<readonly [prefix: string, surface: Surface]> = [
  ['/v1/embeds/:token', 'embed'],
  ['/v1/', 'api'],
  ['/docs', 'api'],
  ['/backoffice/', 'backoffice'],
  ['/console', 'console'],
  ['/favicon.ico', 'console'],
  ['/embeds/', 'embed'],
  ['/embed.js', 'embed'],
];

export function surfaceOf(path: string): Surface {
  for (const [prefix, surface] of SURFACES) if (path.startsWith(prefix)) return surface;
  return 'api';
}

/** A route template as the OpenAPI document writes it: /v1/limits/{limit_id}. */
export const routeTemplate = (url: string): string => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;

interface RequestLabels {
  surface: Surface;
  method: string;
  route: string;
  status_class: (typeof STATUS_CLASSES)[number];
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's label sets of the request duration, per method and status class: built once, when it is added. */
    requestMetricLabels?: Record<string, readonly RequestLabels[]>;
  }
}

/** Seconds; the hot paths answer in a few milliseconds, the reports and exports in seconds. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const labelSets = (surface: Surface, method: string, route: string): RequestLabels[] =>
  STATUS_CLASSES.map((status_class) => ({ surface, method, route, status_class }));

const statusClassIndex = (status: number) => Math.min(4, Math.max(0, Math.floor(status / 100) - 1));

/**
 * compliance_http_request_duration_seconds: every request's duration, by surface, method, route template (never the
 * URL: paths carry user ids, query strings emails) and status class. Registered before any route, so each route's
 * label sets are built once when it is added, and a request costs one observe.
 */
export function registerRequestMetrics(app: FastifyInstance, metrics: Metrics): void {
  const duration = metrics.histogram(
    'compliance_http_request_duration_seconds',
    'Duration of HTTP requests, by surface, method, route template and status class',
    ['surface', 'method', 'route', 'status_class'],
    BUCKETS,
  );
  app.addHook('onRoute', (route) => {
    const surface = surfaceOf(route.url);
    const template = routeTemplate(route.url);
    const byMethod: Record<string, RequestLabels[]> = {};
    for (const method of [route.method].flat()) byMethod[method] = labelSets(surface, method, template);
    // A copy: routes may share one config object.
    route.config = { ...route.config, requestMetricLabels: byMethod };
  });
  const unmatched = (request: FastifyRequest, index: number): RequestLabels => {
    const url = request.routeOptions.url;
    return url === undefined
      ? {
          surface: surfaceOf(request.url),
          method: request.method,
          route: 'unmatched',
          status_class: STATUS_CLASSES[index]!,
        }
      : {
          surface: surfaceOf(url),
          method: request.method,
          route: routeTemplate(url),
          status_class: STATUS_CLASSES[index]!,
        };
  };
  app.addHook('onResponse', (request, reply, done) => {
    const index = statusClassIndex(reply.statusCode);
    const labels =
      request.routeOptions.config.requestMetricLabels?.[request.method]?.[index] ?? unmatched(request, index);
    duration.observe(labels as unknown as Record<string, string>, reply.elapsedTime / 1000);
    done();
  });
}
