import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { SanctionsEntity, SanctionsListPublication } from './entity.js';
import type { SourceFile } from './source.js';

/**
 * Test support: the shipped list files live beside the repository (../shared/data/sanctions), never in it. CI
 * clones the repository with ../shared next to it.
 */
export const SHIPPED_DIR = fileURLToPath(new URL('../../../../../shared/data/sanctions/', import.meta.url));

/** A shipped file as the parsers take it: path relative to the lists directory, bytes as stored. */
export function shipped(path: string): SourceFile {
  return { path, bytes: readFileSync(`${SHIPPED_DIR}${path}`) };
}

export function fixture(name: string): SourceFile {
  return { path: `fixtures/${name}`, bytes: readFileSync(new URL(`./fixtures/${name}`, import.meta.url)) };
}

/** The MANIFEST.txt block describing one shipped file (its heading line and the indented lines under it). */
export function manifestBlock(heading: string): string {
  const lines = readFileSync(`${SHIPPED_DIR}MANIFEST.txt`, 'utf8').split('\n');
  const start = lines.findIndex((line) => line.startsWith(heading));
  if (start < 0) throw new Error(`MANIFEST.txt has no entry for ${heading}`);
  const end = lines.findIndex((line, i) => i > start && /^\S/.test(line));
  return lines.slice(start, end < 0 ? undefined : end).join('\n');
}

/** A number the manifest states in a block, e.g. manifestCount(block, /([\d,]+) individual/). */
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
