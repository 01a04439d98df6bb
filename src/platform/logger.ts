import pino, { type Logger } from 'pino';
import type { Config } from '../config.js';

export function createLogger(config: Pick<Config, 'logLevel'>): Logger {
  return pino({
    level: config.logLevel,
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
  });
}
