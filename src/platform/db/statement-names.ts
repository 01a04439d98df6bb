import { createHash } from 'node:crypto';

/** Statements one connection keeps prepared at most; past it, further new statements are planned each time. */
export const MAX_PREPARED_PER_CONNECTION = 2_000;
/** Longer statements are not prepared (they are the rare, built-per-call ones). */
export const MAX_PREPARED_TEXT = 16_384;

// Names by statement text, shared by every connection: a map look-up costs less than hashing the text each call.
const statementNames = new Map<string, string>();

/** The name a statement is prepared under on any connection: the hash of its text. */
export function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = createHash('sha1').update(text).digest('base64url');
    if (statementNames.size < MAX_PREPARED_PER_CONNECTION) statementNames.set(text, name);
  }
  return name;
}
