import { AsyncLocalStorage } from 'node:async_hooks';
import pino, { type DestinationStream, type Logger } from 'pino';
import pinoPretty from 'pino-pretty';
import type { Config } from '../config.js';

/** Fields replaced by `[redacted]` at the top of a line and one level down. */
const REDACTED_FIELDS = ['api_key', 'signing_secret', 'vendor_access_token', 'email', 'phone'];

/**
 * Fields of an error that may carry the values of a statement (a player's email, a key, a whole row): PostgreSQL's
 * `detail` ("Key (email)=(…) already exists", "Failing row contains (…)"), `where` and `hint`, the parameters and
 * text PGlite and drivers attach (`params`, `parameters`, `query`, `queryOptions`, `internalQuery`). Never logged.
 */
const UNLOGGED_ERROR_FIELDS = [
  'detail',
  'where',
  'hint',
  'params',
  'parameters',
  'values',
  'bindings',
  'query',
  'queryOptions',
  'internalQuery',
  'sql',
] as const;

/** A PostgreSQL data exception (SQLSTATE class 22) quotes the offending value in its message. */
const quotesTheValue = (error: unknown): boolean =>
  typeof (error as { code?: unknown }).code === 'string' &&
  /^22[0-9A-Z]{3}$/.test((error as { code: string }).code);

const unquoted = (text: string) => text.replace(/"(?:[^"\\]|\\.)*"/g, '"[redacted]"');

/**
 * pino's error serializer (type, message, stack, causes, own fields) without the fields above, and with the quoted
 * value of a data exception's message replaced: the code, the message and the constraint or table still say what
 * went wrong. Applies to every log line's `err` (and `error`), whoever logs it.
 */
export function serializeError(error: unknown): unknown {
  const serialized = pino.stdSerializers.err(error as Error) as unknown;
  if (serialized === error || typeof serialized !== 'object' || serialized === null) return serialized;
  const fields = serialized as Record<string, unknown>;
  for (const field of UNLOGGED_ERROR_FIELDS) delete fields[field];
  for (const [key, value] of Object.entries(fields)) {
    // Errors nested in own fields were serialized by pino's serializer, not this one.
    if (value && typeof value === 'object' && 'stack' in value && 'message' in value) {
      fields[key] = serializeError((error as Record<string, unknown>)[key]);
    }
  }
  if (Array.isArray(fields.aggregateErrors)) {
    fields.aggregateErrors = ((error as { errors: unknown[] }).errors ?? []).map(serializeError);
  }
  let cause: unknown = error;
  for (let depth = 0; cause && depth < 10; depth++, cause = (cause as { cause?: unknown }).cause) {
    if (quotesTheValue(cause)) {
      if (typeof fields.message === 'string') fields.message = unquoted(fields.message);
      if (typeof fields.stack === 'string') fields.stack = unquoted(fields.stack);
      break;
    }
  }
  return fields;
}

/** A request being served: its logger (bound to its request id and trace) and whether its answer is out. */
interface RequestScope {
  log: Logger;
  response: { writableEnded: boolean };
}

const requestScope = new AsyncLocalStorage<RequestScope>();

/**
 * Runs the rest of a request inside its scope, so that lines written meanwhile through another logger (an area's
 * `platform.log`) carry the request's fields too. A timer, watcher or connection the request started logs without
 * them once its answer is out: a line is never tied to a request that has ended.
 */
export function withinRequest(scope: RequestScope, next: () => void): void {
  requestScope.run(scope, next);
}

/** The request's bindings for a line written by a logger other than the request's own (which carries them). */
function requestFields(_line: object, _level: number, logger: unknown): object {
  const scope = requestScope.getStore();
  // A new object each time: pino merges the line's own fields into what this returns.
  if (!scope || scope.log === logger || scope.response.writableEnded) return {};
  return scope.log.bindings();
}

/** Human-readable lines for a person at a terminal: the same fields, after the same redaction. */
function prettyLines(destination: DestinationStream | undefined): DestinationStream {
  const out = destination ?? process.stdout;
  const format = pinoPretty.prettyFactory({
    colorize: destination === undefined && pinoPretty.isColorSupported,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'hostname',
  });
  return { write: (line: string) => void out.write(format(line)) };
}

export function createLogger(
  config: Pick<Config, 'logLevel'> & Partial<Pick<Config, 'logFormat'>>,
  destination?: DestinationStream,
): Logger {
  const options: pino.LoggerOptions = {
    level: config.logLevel,
    serializers: { err: serializeError, error: serializeError },
    mixin: requestFields,
    // Secrets and contacts never reach a log line, whatever a caller passes, in either format.
    redact: {
      paths: REDACTED_FIELDS.flatMap((field) => [field, `*.${field}`]).concat('req.headers.authorization'),
      censor: '[redacted]',
    },
  };
  const stream = config.logFormat === 'pretty' ? prettyLines(destination) : destination;
  return stream ? pino(options, stream) : pino(options);
}
