import type { FastifyInstance } from 'fastify';
import type { RouteSummary } from '../../src/app.js';

/** Which credential a route takes: a tenant's bearer key (`/v1`), the staff token (`/backoffice/v1`), or none. */
export type Surface = 'tenant' | 'backoffice' | 'public';

/** A route of the API as the negative-auth suite sees it. */
export interface ApiRoute {
  method: string;
  url: string;
  surface: Surface;
  /** The `:name` parameters of the path, in order. */
  pathParams: string[];
  /** The query-string parameters that name a resource (`…_id`), read from the route's schema. */
  queryIds: string[];
  /** An admin-only operation (`config.adminOnly`, set by adminOnly in platform/auth.ts). */
  adminOnly: boolean;
}

/**
 * A route whose schema declares `security: []` (the OpenAPI word for "no credential") takes no bearer key: health,
 * the OpenAPI document itself, and the sandbox vendor's pages, which a player reaches with a token in the path.
 */
function declaresNoCredential(route: RouteSummary): boolean {
  const security = (route.schema as { security?: unknown } | undefined)?.security;
  return Array.isArray(security) && security.length === 0;
}

const pathParams = (url: string) => [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1]!);

function queryIds(route: RouteSummary): string[] {
  const querystring = (route.schema as { querystring?: { properties?: object } } | undefined)?.querystring;
  return Object.keys(querystring?.properties ?? {}).filter((name) => name.endsWith('_id'));
}

function surfaceOf(route: RouteSummary): Surface | undefined {
  if (route.url.startsWith('/backoffice/v1/')) return 'backoffice';
  if (!route.url.startsWith('/v1/')) return undefined;
  return declaresNoCredential(route) ? 'public' : 'tenant';
}

/**
 * Every API route the app registered, from its own catalogue (filled by an `onRoute` hook before any route), so a
 * route added later is in the table without editing a test. HEAD routes are left out: Fastify derives each from its
 * GET, and their answers have no body whose error shape could be checked. Routes outside the two APIs (the
 * Swagger UI under /docs) are left out too.
 */
export function apiRoutes(app: FastifyInstance): ApiRoute[] {
  return app.routeCatalogue
    .filter((route) => route.method !== 'HEAD')
    .flatMap((route): ApiRoute[] => {
      const surface = surfaceOf(route);
      if (!surface) return [];
      return [
        {
          method: route.method,
          url: route.url,
          surface,
          pathParams: pathParams(route.url),
          queryIds: queryIds(route),
          adminOnly: route.config?.adminOnly === true,
        },
      ];
    });
}

/** `METHOD /url` of a route, as tests name it. */
export const routeName = (route: { method: string; url: string }) => `${route.method} ${route.url}`;

/** The route's URL with each `:name` replaced by `values[name]` (URL-encoded). */
export function fillPath(url: string, values: Record<string, string>): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for :${name} in ${url}`);
    return encodeURIComponent(value);
  });
}
