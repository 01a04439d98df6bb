import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Every error code the service answers with. Codes are stable (clients branch on them); messages may change.
 * Area codes come from the spec's per-area table; the platform's own are documented in docs/decisions.md.
 */
export type ErrorCode =
  // platform
  | 'missing_credentials'
  | 'invalid_credentials'
  | 'forbidden'
  | 'cutover_required'
  | 'not_found'
  | 'invalid_request'
  | 'rate_limited'
  | 'internal_error'
  | 'invalid_webhook_url'
  | 'tenant_not_found'
  | 'key_not_found'
  | 'event_not_found'
  | 'fetch_not_configured'
  // self-exclusion
  | 'invalid_payload'
  | 'already_excluded'
  | 'endpoint_retired'
  // deposit limits
  | 'invalid_amount'
  | 'unsupported_type'
  | 'below_minimum'
  | 'pending_change_exists'
  | 'limit_not_found'
  | 'limit_not_pending'
  | 'currency_mismatch'
  | 'duplicate_transaction'
  // sanctions
  | 'missing_fields'
  | 'already_screened'
  | 'vendor_unavailable'
  | 'screen_not_found'
  | 'case_not_found'
  | 'case_already_decided'
  // geo
  | 'invalid_ip'
  | 'unresolvable_ip'
  | 'country_not_found'
  // aml
  | 'invalid_event'
  | 'duplicate_event'
  | 'queue_unavailable'
  | 'withdrawal_already_screened'
  | 'case_already_closed'
  | 'case_transition_not_allowed'
  // kyc
  | 'already_in_progress'
  | 'ceiling_exceeded'
  | 'kyc_check_not_found'
  | 'check_already_final'
  | 'vendor_flow_not_begun'
  | 'duplicate_withdrawal';

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly statusCode: number,
    message: string,
    /** Extra documented fields of this error's body (for example geo's `status`). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export interface ErrorBody {
  error: string;
  message: string;
  request_id: string;
  [field: string]: unknown;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The 400 code this route answers for a body or query that fails validation (the spec's per-area code), or a
     * map from the offending field to its code, with `*` for any other field.
     */
    validationErrorCode?: string | Record<string, string>;
  }
}

/** The area's 400 code for a validation failure, by the field that failed when the route maps fields to codes. */
function validationCodeFor(request: FastifyRequest, error: FastifyError): string {
  const configured = request.routeOptions.config?.validationErrorCode ?? 'invalid_request';
  if (typeof configured === 'string') return configured;
  const first = error.validation?.[0];
  const field =
    (first?.params as { missingProperty?: string } | undefined)?.missingProperty ??
    first?.instancePath?.split('/')[1];
  return (field && configured[field]) ?? configured['*'] ?? 'invalid_request';
}

function sendError(reply: FastifyReply, status: number, code: string, message: string, extra?: object) {
  const body: ErrorBody = { error: code, message, request_id: reply.request.id, ...extra };
  return reply.code(status).type('application/json').send(JSON.stringify(body));
}

/** Turns every failure into the spec's error body; no stack or SQL ever reaches a client. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, 404, 'not_found', `No route ${request.method} ${request.url.split('?')[0]}`),
  );

  app.setErrorHandler((error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) {
      return sendError(reply, error.statusCode, error.code, error.message, error.extra);
    }
    const validationCode = validationCodeFor(request, error as FastifyError);
    if ((error as FastifyError).validation) {
      const where = (error as FastifyError).validationContext ?? 'request';
      return sendError(reply, 400, validationCode, `Invalid ${where}: ${error.message}`);
    }
    const status = (error as FastifyError).statusCode ?? 500;
    // Malformed JSON, a wrong content type, an oversized or empty body: all a 400 in the area's code.
    if (status >= 400 && status < 500) {
      return sendError(reply, 400, validationCode, error.message);
    }
    request.log.error({ err: error, tenant_id: request.tenantContext?.tenant.tenant_id }, 'unhandled error');
    return sendError(
      reply,
      500,
      'internal_error',
      'An unexpected error occurred; quote the request_id to support.',
    );
  });
}
