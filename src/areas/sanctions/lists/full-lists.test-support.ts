import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe } from 'vitest';
import type { SourceFile } from './source.js';
import { readManifestBlock } from './shipped-data.js';

/**
 * Test support for the few tests that need a whole published list (counts over a full list, the matcher's quality
 * among tens of thousands of names). The full lists are too large to commit: they live in the shared data folder
 * beside the repository, or wherever SANCTIONS_DATA_DIR points. Every other test reads the committed excerpts
 * (shipped-data.ts).
 */
export const FULL_LISTS_DIR = process.env.SANCTIONS_DATA_DIR
  ? resolve(process.env.SANCTIONS_DATA_DIR)
  : fileURLToPath(new URL('../../../../../shared/data/sanctions', import.meta.url));

const present = existsSync(FULL_LISTS_DIR);
// CI sets this so that a missing shared folder fails the run instead of passing with the whole-list tests skipped.
const required = process.env.COMPLIANCE_REQUIRE_FULL_LISTS === '1';
const absent =
  `the full sanctions lists are not at ${FULL_LISTS_DIR} (they live in the shared data folder beside the ` +
  'repository, ../shared/data/sanctions, or set SANCTIONS_DATA_DIR; see README)';
let toldSkipped = false;

/**
 * A describe block over the full lists: runs when FULL_LISTS_DIR exists; otherwise skipped with the reason printed
 * once per test file, or failed when COMPLIANCE_REQUIRE_FULL_LISTS=1. The block is collected even when skipped,
 * so `fn` must read the lists only inside hooks and tests, never while the block is being declared.
 */
export function describeFullLists(name: string, fn: () => void): void {
  if (present) {
    describe(name, fn);
  } else if (required) {
    describe(name, () => {
      beforeAll(() => {
        throw new Error(`COMPLIANCE_REQUIRE_FULL_LISTS=1, but ${absent}`);
      });
      fn();
    });
  } else {
    if (!toldSkipped) console.warn(`skipped: ${absent}`);
    toldSkipped = true;
    describe.skip(name, fn);
  }
}

/** A full-list file as the parsers take it: path relative to FULL_LISTS_DIR, bytes as stored. */
export function fullList(path: string): SourceFile {
  return { path, bytes: readFileSync(`${FULL_LISTS_DIR}/${path}`) };
}

/** The block of the shared MANIFEST.txt describing one full-list file. */
export function fullListsManifestBlock(heading: string): string {
  return readManifestBlock(`${FULL_LISTS_DIR}/MANIFEST.txt`, heading);
}
