import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { newId } from './ids.js';

/**
 * Every error code the service answers with. Codes are stable (clients branch on them); messages may change.
 * Area codes come from the spec's per-area table; the platform's own are documented in docs/api.md ("What the spec leaves open").
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
  | 'vendor_not_configured'
  // staff and four eyes
  | 'decision_already_proposed'
  | 'no_decision_proposed'
  | 'second_approver_required'
  | 'staff_session_required'
  | 'csrf_token_invalid'
  | 'staff_not_found'
  | 'staff_email_taken'
  | 'staff_status_conflict'
  | 'setup_link_invalid'
  | 'sign_in_failed'
  | 'stored_secret_unreadable'
  // raised by the framework before a route runs (see frameworkErrorHandler, clientErrorHandler)
  | 'invalid_url'
  | 'uri_too_long'
  | 'headers_too_large'
  | 'request_timeout'
  | 'bad_request'
  // self-exclusion
  | 'invalid_payload'
  | 'already_excluded'
  | 'endpoint_retired'
  | 'exclusion_not_found'
  | 'exclusion_not_active'
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
  | 'dismissal_not_found'
  | 'dismissal_not_in_force'
  | 'list_version_not_found'
  | 'rescreen_not_allowed'
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
  | 'decision_not_allowed_for_origin'
  | 'dead_letter_not_found'
  | 'dead_letter_already_redriven'
  // kyc
  | 'already_in_progress'
  | 'ceiling_exceeded'
  | 'kyc_check_not_found'
  | 'check_already_final'
  | 'vendor_flow_not_begun'
  | 'duplicate_withdrawal'
  // hosted embeds
  | 'invalid_embed_token'
  | 'embed_session_expired'
  | 'embed_session_completed'
  | 'embed_kind_mismatch'
  | 'invalid_code'
  | 'code_expired'
  | 'code_locked'
  | 'code_not_requested'
  | 'resend_too_early'
  | 'too_many_codes'
  | 'mail_not_found'
  // reports and the regulator's exports
  | 'report_not_found'
  | 'export_not_found'
  | 'case_not_escalated';

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly statusCode: number,
    message: string,
    /** Extra documented fields of this error's body (for example geo's `status`). */
    readonly extra?: Record<string, unknown>,
    /** For a 429: the Retry-After header, in whole seconds. */
    readonly retryAfterSeconds?: number,
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

/** Fastify's words for a body it refused, where they do not say what to send instead. */
const BODY_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'The body must be JSON, sent with Content-Type: application/json',
  FST_ERR_CTP_BODY_TOO_LARGE: 'The body is over the 1 MiB the service accepts',
};

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
      if (error.retryAfterSeconds !== undefined) {
        void reply.header('retry-after', Math.max(1, Math.ceil(error.retryAfterSeconds)));
      }
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
      const message = BODY_MESSAGES[(error as FastifyError).code] ?? error.message;
      return sendError(reply, 400, validationCode, message);
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

/**
 * Whether a database error is about the values written (SQLSTATE class 22, data exception, or 23, integrity
 * constraint violation): the same statement fails again however often it is retried.
 */
export function isRefusedValue(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^2[23][0-9A-Z]{3}$/.test(code);
}

/** The router's limit on one path parameter: the longest the schemas accept (identifiers of up to 200 characters). */
export const MAX_PATH_PARAMETER_LENGTH = 200;

/**
 * Errors the framework raises before any route runs (so before any area could name its code): the platform's
 * codes, in the same body as every other error.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  void reply.header('x-request-id', request.id);
  if (error.code === 'FST_ERR_BAD_URL') {
    return sendError(reply, 400, 'invalid_url', 'The path is not valid percent-encoded UTF-8');
  }
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return sendError(
      reply,
      414,
      'uri_too_long',
      `A path parameter is longer than ${MAX_PATH_PARAMETER_LENGTH} characters`,
    );
  }
  request.log.error({ err: error }, 'unhandled framework error');
  return sendError(
    reply,
    500,
    'internal_error',
    'An unexpected error occurred; quote the request_id to support.',
  );
}

/** Node's HTTP parser errors by code: [status, error, message]; anything else it refuses is 400 bad_request. */
const CLIENT_ERRORS: Record<string, [number, ErrorCode, string]> = {
  HPE_HEADER_OVERFLOW: [
    431,
    'headers_too_large',
    'The request line and headers exceed 16 KiB (a long query string counts toward it)',
  ],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'request_timeout', 'The request was not received in time'],
  ERR_HTTP_HEADERS_TIMEOUT: [408, 'request_timeout', 'The request headers were not received in time'],
};

/**
 * A request Node's HTTP parser refused (headers or a query too large, a malformed request line, a timeout): no
 * Fastify request exists, so the answer is written to the socket here, in the error body with a fresh request id,
 * and the connection is closed, as Node itself does.
 */
export function clientErrorHandler(
  this: FastifyInstance,
  error: Error & { code?: string },
  socket: Socket,
): void {
  // A reset connection, or one already gone: nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message] = CLIENT_ERRORS[error.code ?? ''] ?? [
    400,
    'bad_request',
    'The HTTP request is malformed',
  ];
  const requestId = newId('request');
  this.log.debug({ err: error, request_id: requestId, code }, 'client error');
  const body = JSON.stringify({ error: code, message, request_id: requestId } satisfies ErrorBody);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
