import createFetchClient from 'openapi-fetch';
import { ComplianceServiceError } from './errors.js';
import type { paths } from './generated/api.js';
import { retryingFetch, type RetryOptions } from './retry.js';

export { ComplianceServiceError, type ErrorBody } from './errors.js';
export type { components, operations, paths, webhooks } from './generated/api.js';
export { RETRYABLE_503_CODES, type RetryOptions } from './retry.js';
export {
  verifyWebhook,
  WebhookVerificationError,
  type WebhookEvent,
  type WebhookEventName,
  type WebhookEventOf,
  type WebhookHeaders,
} from './webhooks.js';

export interface ClientOptions extends RetryOptions {
  /** The service's address, e.g. https://compliance.example (no /v1: the paths carry it). */
  baseUrl: string;
  /** Your tenant's API key (svc_sk_test_… or svc_sk_live_…). */
  apiKey: string;
  /** The fetch to send with (default the global one). */
  fetch?: (request: Request) => Promise<Response>;
}

type Method = 'get' | 'post' | 'put' | 'delete';
type Operation<Path extends keyof paths, M extends Method> = NonNullable<paths[Path][M]>;
/** The JSON body an operation takes. */
export type RequestBody<Path extends keyof paths, M extends Method> =
  Operation<Path, M> extends { requestBody?: { content: { 'application/json': infer Body } } } ? Body : never;
/** The query-string parameters an operation takes. */
export type Query<Path extends keyof paths, M extends Method> =
  Operation<Path, M> extends { parameters: { query?: infer Parameters } } ? NonNullable<Parameters> : never;

/** openapi-fetch's answer: the 2xx body, or the service's error thrown as ComplianceServiceError. */
async function ok<Data>(
  pending: Promise<{ data?: Data; error?: unknown; response: Response }>,
): Promise<Data> {
  const { data, error, response } = await pending;
  if (!response.ok) throw ComplianceServiceError.from(response, error);
  return data as Data;
}

/**
 * A client of the tenant API: one method per endpoint, grouped by the spec's areas and named in its words. Each
 * resolves to the 2xx body, typed from the service's OpenAPI document, and rejects with ComplianceServiceError. A
 * 429 is retried after its Retry-After and a 503 the spec marks retryable (vendor_unavailable, queue_unavailable)
 * with exponential backoff; no other answer is retried.
 */
export function createComplianceClient(options: ClientOptions) {
  const http = createFetchClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { authorization: `Bearer ${options.apiKey}` },
    fetch: retryingFetch(options.fetch ?? ((request) => fetch(request)), options),
  });

  return {
    exclusions: {
      create: (body: RequestBody<'/v1/exclusions', 'post'>) => ok(http.POST('/v1/exclusions', { body })),
      check: (query: Query<'/v1/exclusions/check', 'get'>) =>
        ok(http.GET('/v1/exclusions/check', { params: { query } })),
      checkBatch: (body: RequestBody<'/v1/exclusions/check-batch', 'post'>) =>
        ok(http.POST('/v1/exclusions/check-batch', { body })),
      snapshot: (query: Query<'/v1/exclusions/snapshot', 'get'> = {}) =>
        ok(http.GET('/v1/exclusions/snapshot', { params: { query } })),
    },
    limits: {
      set: (body: RequestBody<'/v1/limits', 'post'>) => ok(http.POST('/v1/limits', { body })),
      list: (query: Query<'/v1/limits', 'get'>) => ok(http.GET('/v1/limits', { params: { query } })),
      check: (body: RequestBody<'/v1/limits/check', 'post'>) => ok(http.POST('/v1/limits/check', { body })),
      wagerCheck: (body: RequestBody<'/v1/limits/wager-check', 'post'>) =>
        ok(http.POST('/v1/limits/wager-check', { body })),
      commit: (body: RequestBody<'/v1/limits/commit', 'post'>) =>
        ok(http.POST('/v1/limits/commit', { body })),
      release: (body: RequestBody<'/v1/limits/release', 'post'>) =>
        ok(http.POST('/v1/limits/release', { body })),
      cancel: (limitId: string) => ok(http.DELETE('/v1/limits/{id}', { params: { path: { id: limitId } } })),
    },
    playSessions: {
      start: (body: RequestBody<'/v1/play-sessions', 'post'>) => ok(http.POST('/v1/play-sessions', { body })),
      end: (sessionId: string, body: RequestBody<'/v1/play-sessions/{session_id}/end', 'post'>) =>
        ok(
          http.POST('/v1/play-sessions/{session_id}/end', {
            params: { path: { session_id: sessionId } },
            body,
          }),
        ),
      get: (sessionId: string) =>
        ok(http.GET('/v1/play-sessions/{session_id}', { params: { path: { session_id: sessionId } } })),
    },
    timeOuts: {
      take: (body: RequestBody<'/v1/time-outs', 'post'>) => ok(http.POST('/v1/time-outs', { body })),
      list: (query: Query<'/v1/time-outs', 'get'>) => ok(http.GET('/v1/time-outs', { params: { query } })),
    },
    players: {
      status: (userId: string, query: Query<'/v1/players/{user_id}/status', 'get'> = {}) =>
        ok(http.GET('/v1/players/{user_id}/status', { params: { path: { user_id: userId }, query } })),
      setRealityCheck: (userId: string, body: RequestBody<'/v1/players/{user_id}/reality-check', 'put'>) =>
        ok(http.PUT('/v1/players/{user_id}/reality-check', { params: { path: { user_id: userId } }, body })),
      recordInteraction: (userId: string, body: RequestBody<'/v1/players/{user_id}/interactions', 'post'>) =>
        ok(http.POST('/v1/players/{user_id}/interactions', { params: { path: { user_id: userId } }, body })),
      closed: (userId: string, body: RequestBody<'/v1/players/{user_id}/closed', 'post'>) =>
        ok(http.POST('/v1/players/{user_id}/closed', { params: { path: { user_id: userId } }, body })),
      requestErasure: (userId: string, body: RequestBody<'/v1/players/{user_id}/erasure-requests', 'post'>) =>
        ok(
          http.POST('/v1/players/{user_id}/erasure-requests', {
            params: { path: { user_id: userId } },
            body,
          }),
        ),
      erasureRequests: (userId: string) =>
        ok(http.GET('/v1/players/{user_id}/erasure-requests', { params: { path: { user_id: userId } } })),
      erasureRequest: (userId: string, erasureRequestId: string) =>
        ok(
          http.GET('/v1/players/{user_id}/erasure-requests/{erasure_request_id}', {
            params: { path: { user_id: userId, erasure_request_id: erasureRequestId } },
          }),
        ),
      saferGambling: (userId: string) =>
        ok(http.GET('/v1/players/{user_id}/safer-gambling', { params: { path: { user_id: userId } } })),
    },
    kyc: {
      start: (body: RequestBody<'/v1/kyc/start', 'post'>) => ok(http.POST('/v1/kyc/start', { body })),
      status: (query: Query<'/v1/kyc/status', 'get'>) =>
        ok(http.GET('/v1/kyc/status', { params: { query } })),
      tier: (query: Query<'/v1/kyc/tier', 'get'>) => ok(http.GET('/v1/kyc/tier', { params: { query } })),
      manualReview: (body: RequestBody<'/v1/kyc/manual-review', 'post'>) =>
        ok(http.POST('/v1/kyc/manual-review', { body })),
      withdrawalCompleted: (body: RequestBody<'/v1/kyc/withdrawal-completed', 'post'>) =>
        ok(http.POST('/v1/kyc/withdrawal-completed', { body })),
    },
    sanctions: {
      screen: (body: RequestBody<'/v1/sanctions/screen', 'post'>) =>
        ok(http.POST('/v1/sanctions/screen', { body })),
      status: (query: Query<'/v1/sanctions/status', 'get'>) =>
        ok(http.GET('/v1/sanctions/status', { params: { query } })),
    },
    geo: {
      check: (body: RequestBody<'/v1/geo/check', 'post'>) => ok(http.POST('/v1/geo/check', { body })),
      countries: () => ok(http.GET('/v1/geo/countries')),
    },
    aml: {
      event: (body: RequestBody<'/v1/aml/event', 'post'>) => ok(http.POST('/v1/aml/event', { body })),
      screen: (body: RequestBody<'/v1/aml/screen', 'post'>) => ok(http.POST('/v1/aml/screen', { body })),
      cases: (query: Query<'/v1/aml/cases', 'get'>) => ok(http.GET('/v1/aml/cases', { params: { query } })),
    },
    embeds: {
      createSession: (body: RequestBody<'/v1/embeds/sessions', 'post'>) =>
        ok(http.POST('/v1/embeds/sessions', { body })),
    },
    events: {
      list: (query: Query<'/v1/events', 'get'> = {}) => ok(http.GET('/v1/events', { params: { query } })),
    },
    health: {
      live: () => ok(http.GET('/v1/health')),
      ready: () => ok(http.GET('/v1/health/ready')),
    },
  };
}

export type ComplianceClient = ReturnType<typeof createComplianceClient>;
