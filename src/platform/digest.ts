import { createHash } from 'node:crypto';

/** Hex SHA-256 of content produced a chunk at a time (a report or an export is never held whole to be hashed). */
export async function sha256OfChunks(
  chunks: AsyncIterable<string>,
): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of chunks) {
    hash.update(chunk, 'utf8');
    bytes += Buffer.byteLength(chunk, 'utf8');
  }
  return { sha256: hash.digest('hex'), bytes };
}

/** Hex SHA-256 of a text (UTF-8): the hash kept of every secret token, and a report's digest. */
export const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
