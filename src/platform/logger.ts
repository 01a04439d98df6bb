import pino, { type DestinationStream, type Logger } from 'pino';
import type { Config } from '../config.js';

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

export function createLogger(config: Pick<Config, 'logLevel'>, destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level: config.logLevel,
    serializers: { err: serializeError, error: serializeError },
    // Secrets never reach a log line, whatever a caller passes.
    redact: {
      paths: [
        'req.headers.authorization',
        '*.api_key',
        '*.signing_secret',
        '*.vendor_access_token',
        '*.email',
        '*.phone',
      ],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
