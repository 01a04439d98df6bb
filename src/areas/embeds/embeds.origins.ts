import { AppError } from '../../platform/errors.js';

/**
 * `https://casino.example` as registered: a scheme, a host and a port only, as CSP frame-ancestors takes them. A
 * path, a query, credentials or a wildcard is refused rather than silently dropped.
 */
export function normaliseOrigin(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new AppError('invalid_request', `${raw} is not an origin (https://casino.example)`);
  }
  const bare = url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;
  if (!['https:', 'http:'].includes(url.protocol) || !bare || url.hostname.includes('*')) {
    throw new AppError(
      'invalid_request',
      `${raw} is not an origin: give a scheme, a host and a port only (https://casino.example)`,
    );
  }
  return url.origin;
}
