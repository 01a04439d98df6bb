import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyContextConfig,
  type FastifyInstance,
  type FastifySchema,
} from 'fastify';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { BACKOFFICE_PREFIX, backofficeRoutes } from './backoffice/backoffice.routes.js';
import { consoleRoutes } from './console/console.routes.js';
import { registerTenantAuth } from './platform/auth.js';
import type { Config } from './config.js';
import { EVENT_CATALOGUE, MANIFESTS } from './manifests.js';
import type { Platform } from './platform/context.js';
import {
  clientErrorHandler,
  frameworkErrorHandler,
  MAX_PATH_PARAMETER_LENGTH,
  registerErrorHandling,
} from './platform/errors.js';
import { openApiWebhooks } from './platform/events.js';
import { newId } from './platform/ids.js';
import { withinRequest } from './platform/logger.js';
import { registerTenantRateLimits } from './platform/rate-limit.js';
import { registerRequestMetrics } from './platform/request-metrics.js';
import { traceFields } from './platform/trace-context.js';
import { validatorCompiler } from './platform/validation.js';
import { parseQueryString } from './platform/validation.strings.js';
import { VERSION } from './version.js';

/**
 * A route as registered: what the property-based input test and the negative-auth suite walk, so a new route is
 * covered without editing them. What a route takes is data on it: `schema.security: []` for no bearer key,
 * `config.adminOnly` for an admin key.
 */
export interface RouteSummary {
  method: string;
  url: string;
  schema: FastifySchema | undefined;
  config: FastifyContextConfig | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route of the app, in registration order. */
    routeCatalogue: readonly RouteSummary[];
  }
}

export interface AppOptions {
  platform: Platform;
  logger: Logger;
  backofficeTokenHash: string;
  redis?: Redis | undefined;
}

/** A year, this host and its subdomains: what browsers' preload lists ask for, without opting into them. */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000; includeSubDomains';

/** Fastify takes a hop count as a function of the hop (its types have no number form). */
const trustProxyOption = (trust: Config['trustProxy']) =>
  typeof trust === 'number' ? (_address: string, hop: number) => hop < trust : trust;

/**
 * A query parameter or body field with a default is the caller's to leave out (the validator fills it in), so the
 * document does not list it as required: generated clients would otherwise demand it.
 */
function defaultsOptional(schema: unknown): unknown {
  const object = schema as { properties?: Record<string, { default?: unknown }>; required?: string[] };
  if (!object?.properties || !object.required) return schema;
  const required = object.required.filter((name) => object.properties![name]?.default === undefined);
  return { ...object, required: required.length > 0 ? required : undefined };
}

/** Builds the service with no listen(): main.ts listens, tests inject. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { platform } = options;
  const app = Fastify({
    loggerInstance: options.logger as FastifyBaseLogger,
    // No info line per request: on hot paths it costs more than the work itself. Errors are still logged.
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'request_id' }),
    genReqId: () => newId('request'),
    // A caller's W3C trace, when its traceparent is well-formed, on every line of the request (a bad one is ignored).
    childLoggerFactory: (logger, bindings, options, rawRequest) => {
      const trace = traceFields(rawRequest.headers.traceparent);
      return logger.child(trace ? { ...bindings, ...trace } : bindings, options);
    },
    requestIdHeader: false,
    bodyLimit: 1024 * 1024,
    trustProxy: trustProxyOption(platform.config.trustProxy),
    routerOptions: {
      ignoreTrailingSlash: true,
      maxParamLength: MAX_PATH_PARAMETER_LENGTH,
      querystringParser: parseQueryString,
    },
    // Refusals before any route runs answer in the same error body as everything else.
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
  }).withTypeProvider<TypeBoxTypeProvider>();

  // Before every other hook: what the areas log through platform.log while serving it carries its request id too.
  app.addHook('onRequest', (request, reply, done) =>
    withinRequest({ log: request.log as Logger, response: reply.raw }, done),
  );
  // Before any route is added: each route's metric labels are built when it is.
  registerRequestMetrics(app, platform.metrics);
  app.setValidatorCompiler(validatorCompiler({ clock: platform.clock }));
  registerErrorHandling(app);
  // Bodies are JSON (the spec): anything else, text/plain included, is refused before a route runs.
  app.removeContentTypeParser('text/plain');
  const routeCatalogue: RouteSummary[] = [];
  app.decorate('routeCatalogue', routeCatalogue);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      routeCatalogue.push({ method, url: route.url, schema: route.schema, config: route.config });
    }
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    // On every response served over HTTPS (directly, or by a TRUST_PROXY proxy that says so): once a browser has
    // seen the service over TLS it never goes back to plain HTTP, where a session cookie could be read.
    if (request.protocol === 'https') reply.header('strict-transport-security', STRICT_TRANSPORT_SECURITY);
  });
  app.addHook('onResponse', async (request, reply) => {
    // The route pattern, never the URL: query strings carry emails and phone numbers.
    request.log.debug(
      {
        tenant_id: request.tenantContext?.tenant.tenant_id,
        method: request.method,
        route: request.routeOptions.url,
        status: reply.statusCode,
        ms: reply.elapsedTime,
      },
      'request',
    );
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Compliance Service API',
        version: VERSION,
        description:
          'Self-exclusion, deposit limits, KYC, geo-blocking, sanctions screening and AML monitoring for gambling operators.',
      },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'svc_sk_test_… or svc_sk_live_… API key' },
        },
      },
      security: [{ bearer: [] }],
      // Every event the service sends, as the operator's endpoint receives it (the typed client's events).
      webhooks: openApiWebhooks(EVENT_CATALOGUE),
    },
    // The published document is the tenant API; the staff's back office is documented in docs/backoffice.md.
    transform: ({ schema, url }) => ({
      schema: {
        ...schema,
        querystring: defaultsOptional(schema?.querystring),
        body: defaultsOptional(schema?.body),
        hide: !url.startsWith('/v1/') || url === '/v1/openapi.json',
      },
      url,
    }),
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });
  // Public, as the document says of itself (hidden from it by the transform above).
  app.get('/v1/openapi.json', { config: {}, schema: { security: [] } }, async () => app.swagger());

  const parts = (kind: 'openRoutes' | 'tenantRoutes' | 'pages') =>
    MANIFESTS.flatMap((part) => (part[kind] ? [part[kind](platform)] : []));
  for (const routes of parts('openRoutes')) await app.register(routes, { prefix: '/v1' });
  // The tenant API: bearer key, then per-key rate limits, then each area's routes.
  await app.register(
    async (api) => {
      registerTenantAuth(api, platform);
      await registerTenantRateLimits(api, options.redis, platform.metrics);
      for (const routes of parts('tenantRoutes')) await api.register(routes);
    },
    { prefix: '/v1' },
  );
  await app.register(backofficeRoutes(platform, options.backofficeTokenHash), { prefix: BACKOFFICE_PREFIX });
  await app.register(consoleRoutes(platform));
  for (const routes of parts('pages')) await app.register(routes);
  return app;
}
