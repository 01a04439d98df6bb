import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { SanctionsEntity, SanctionsListPublication } from './entity.js';
import type { SourceFile } from './source.js';

/**
 * Test support: excerpts of the official list files, committed in fixtures/excerpts/ with the same layout as the
 * full lists (../shared/data/sanctions) and a MANIFEST.txt giving each excerpt's source and counts. Whole records
 * cut from the real files, so a fresh clone runs every parsing, loading and screening test. The tests that need a
 * whole list read it through full-lists.test-support.ts.
 */
export const EXCERPTS_DIR = fileURLToPath(new URL('./fixtures/excerpts/', import.meta.url));

/** An excerpt as the parsers take it: path relative to the lists directory, bytes as stored. */
export function excerpt(path: string): SourceFile {
  return { path, bytes: readFileSync(`${EXCERPTS_DIR}${path}`) };
}

/** A fixture written by hand to a published layout no real file is available for. */
export function fixture(name: string): SourceFile {
  return { path: `fixtures/${name}`, bytes: readFileSync(new URL(`./fixtures/${name}`, import.meta.url)) };
}

/** The block of a MANIFEST.txt describing one file (its heading line and the indented lines under it). */
export function readManifestBlock(manifestPath: string, heading: string): string {
  const lines = readFileSync(manifestPath, 'utf8').split('\n');
  const start = lines.findIndex((line) => line.startsWith(heading));
  if (start < 0) throw new Error(`${manifestPath} has no entry for ${heading}`);
  const end = lines.findIndex((line, i) => i > start && /^\S/.test(line));
  return lines.slice(start, end < 0 ? undefined : end).join('\n');
}

/** The block of the excerpts' MANIFEST.txt describing one excerpt. */
export function excerptManifestBlock(heading: string): string {
  return readManifestBlock(`${EXCERPTS_DIR}MANIFEST.txt`, heading);
}

/** A number a manifest states in a block, e.g. manifestCount(block, /([\d,]+) individual/). */
export function manifestCount(block: string, pattern: RegExp): number {
  const match = pattern.exec(block);
  if (!match?.[1]) throw new Error(`MANIFEST.txt block does not state ${pattern}`);
  return Number(match[1].replace(/,/g, ''));
}

export function entity(publication: SanctionsListPublication, id: string): SanctionsEntity {
  const found = publication.entities.find((e) => e.list_entity_id === id);
  if (!found) throw new Error(`${publication.list} has no entity ${id}`);
  return found;
}

export const countBy = (publication: SanctionsListPublication, test: (e: SanctionsEntity) => boolean) =>
  publication.entities.filter(test).length;
