import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { newId } from './ids.js';

/**
 * Every error code the service answers with, and its HTTP status: a code has one status, so call sites name only the
 * code. Codes are stable (clients branch on them); messages may change. Area codes come from the spec's per-area
 * table; the platform's own are documented in docs/api.md ("What the spec leaves open").
 */
export const ERROR_STATUS = {
  // platform
  missing_credentials: 401,
  invalid_credentials: 401,
  forbidden: 403,
  cutover_required: 403,
  not_found: 404,
  invalid_request: 400,
  rate_limited: 429,
  internal_error: 500,
  invalid_webhook_url: 400,
  tenant_not_found: 404,
  player_not_found: 404,
  contact_not_found: 404,
  retention_not_overridable: 400,
  retention_out_of_bounds: 400,
  key_not_found: 404,
  event_not_found: 404,
  fetch_not_configured: 409,
  vendor_not_configured: 409,
  // staff and four eyes
  decision_already_proposed: 409,
  no_decision_proposed: 409,
  second_approver_required: 403,
  staff_session_required: 403,
  csrf_token_invalid: 403,
  staff_not_found: 404,
  staff_email_taken: 409,
  staff_status_conflict: 409,
  setup_link_invalid: 404,
  sign_in_failed: 401,
  stored_secret_unreadable: 500,
  // raised by the framework before a route runs (see frameworkErrorHandler, clientErrorHandler)
  invalid_url: 400,
  uri_too_long: 414,
  headers_too_large: 431,
  request_timeout: 408,
  bad_request: 400,
  // self-exclusion
  invalid_payload: 400,
  already_excluded: 409,
  endpoint_retired: 410,
  exclusion_not_found: 404,
  exclusion_not_active: 409,
  // deposit limits
  invalid_amount: 400,
  unsupported_type: 400,
  below_minimum: 422,
  pending_change_exists: 409,
  limit_not_found: 404,
  limit_not_pending: 409,
  currency_mismatch: 422,
  duplicate_transaction: 409,
  // play sessions
  duplicate_session: 409,
  play_session_not_found: 404,
  session_already_ended: 409,
  ended_before_start: 422,
  // time-outs
  unsupported_duration: 400,
  // sanctions
  missing_fields: 400,
  already_screened: 409,
  vendor_unavailable: 503,
  screen_not_found: 404,
  case_not_found: 404,
  case_already_decided: 409,
  dismissal_not_found: 404,
  dismissal_not_in_force: 409,
  list_version_not_found: 404,
  rescreen_not_allowed: 409,
  // geo
  invalid_ip: 400,
  unresolvable_ip: 422,
  country_not_found: 404,
  // aml
  invalid_event: 400,
  duplicate_event: 409,
  queue_unavailable: 503,
  withdrawal_already_screened: 409,
  case_already_closed: 409,
  case_transition_not_allowed: 409,
  decision_not_allowed_for_origin: 409,
  dead_letter_not_found: 404,
  dead_letter_already_redriven: 409,
  // kyc
  already_in_progress: 409,
  ceiling_exceeded: 422,
  kyc_check_not_found: 404,
  check_already_final: 409,
  vendor_flow_not_begun: 409,
  duplicate_withdrawal: 409,
  // hosted embeds
  invalid_embed_token: 401,
  embed_session_expired: 401,
  embed_session_completed: 409,
  embed_kind_mismatch: 409,
  invalid_code: 422,
  code_expired: 422,
  code_locked: 422,
  code_not_requested: 409,
  resend_too_early: 429,
  too_many_codes: 429,
  mail_not_found: 404,
  // reports and the regulator's exports
  report_not_found: 404,
  export_not_found: 404,
  case_not_escalated: 409,
  // safer gambling
  duplicate_interaction: 409,
  account_already_closed: 409,
  duplicate_erasure_request: 409,
  erasure_request_not_found: 404,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** The codes a request that fails validation may answer with: an area's 400. */
export type ValidationErrorCode = {
  [Code in ErrorCode]: (typeof ERROR_STATUS)[Code] extends 400 ? Code : never;
}[ErrorCode];

/** A refusal in the service's words: the handler answers it with its code's status and the error body. */
export class AppError extends Error {
  readonly statusCode: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra documented fields of this error's body (for example geo's `status`). */
    readonly extra?: Record<string, unknown>,
    /** For a 429: the Retry-After header, in whole seconds. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'AppError';
    this.statusCode = ERROR_STATUS[code];
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
    validationErrorCode?: ValidationErrorCode | Record<string, ValidationErrorCode>;
  }
}

/** Fastify's words for a body it refused, where they do not say what to send instead. */
const BODY_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'The body must be JSON, sent with Content-Type: application/json',
  FST_ERR_CTP_BODY_TOO_LARGE: 'The body is over the 1 MiB the service accepts',
};

/** The area's 400 code for a validation failure, by the field that failed when the route maps fields to codes. */
function validationCodeFor(request: FastifyRequest, error: FastifyError): ValidationErrorCode {
  const configured = request.routeOptions.config?.validationErrorCode ?? 'invalid_request';
  if (typeof configured === 'string') return configured;
  const first = error.validation?.[0];
  const field =
    (first?.params as { missingProperty?: string } | undefined)?.missingProperty ??
    first?.instancePath?.split('/')[1];
  return (field ? configured[field] : undefined) ?? configured['*'] ?? 'invalid_request';
}

function sendError(reply: FastifyReply, code: ErrorCode, message: string, extra?: object) {
  const body: ErrorBody = { error: code, message, request_id: reply.request.id, ...extra };
  return reply.code(ERROR_STATUS[code]).type('application/json').send(JSON.stringify(body));
}

/** What a 500 says: nothing of the failure itself. */
const UNEXPECTED = 'An unexpected error occurred; quote the request_id to support.';

/** Turns every failure into the spec's error body; no stack or SQL ever reaches a client. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, 'not_found', `No route ${request.method} ${request.url.split('?')[0]}`),
  );

  app.setErrorHandler((error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) {
      if (error.retryAfterSeconds !== undefined) {
        void reply.header('retry-after', Math.max(1, Math.ceil(error.retryAfterSeconds)));
      }
      return sendError(reply, error.code, error.message, error.extra);
    }
    const validationCode = validationCodeFor(request, error as FastifyError);
    if ((error as FastifyError).validation) {
      const where = (error as FastifyError).validationContext ?? 'request';
      return sendError(reply, validationCode, `Invalid ${where}: ${error.message}`);
    }
    const status = (error as FastifyError).statusCode ?? 500;
    // Malformed JSON, a wrong content type, an oversized or empty body: all a 400 in the area's code.
    if (status >= 400 && status < 500) {
      const message = BODY_MESSAGES[(error as FastifyError).code] ?? error.message;
      return sendError(reply, validationCode, message);
    }
    request.log.error({ err: error, tenant_id: request.tenantContext?.tenant.tenant_id }, 'unhandled error');
    return sendError(reply, 'internal_error', UNEXPECTED);
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
    return sendError(reply, 'invalid_url', 'The path is not valid percent-encoded UTF-8');
  }
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return sendError(
      reply,
      'uri_too_long',
      `A path parameter is longer than ${MAX_PATH_PARAMETER_LENGTH} characters`,
    );
  }
  request.log.error({ err: error }, 'unhandled framework error');
  return sendError(reply, 'internal_error', UNEXPECTED);
}

/** Node's HTTP parser errors by code: [error, message]; anything else it refuses is bad_request. */
const CLIENT_ERRORS: Record<string, [ErrorCode, string]> = {
  HPE_HEADER_OVERFLOW: [
    'headers_too_large',
    'The request line and headers exceed 16 KiB (a long query string counts toward it)',
  ],
  ERR_HTTP_REQUEST_TIMEOUT: ['request_timeout', 'The request was not received in time'],
  ERR_HTTP_HEADERS_TIMEOUT: ['request_timeout', 'The request headers were not received in time'],
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
  const [code, message] = CLIENT_ERRORS[error.code ?? ''] ?? ['bad_request', 'The HTTP request is malformed'];
  const status = ERROR_STATUS[code];
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
