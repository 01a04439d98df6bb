/** What the sanctions evaluation and benchmark scripts both read. */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { NameCulture } from '../src/areas/sanctions/matching/eval/ordinary-names.js';

/**
 * The folder of the full published sanctions lists: `given`, else SANCTIONS_DATA_DIR, else the shared data folder
 * beside the clone. A fresh clone has none: the script says so and exits 0, since it needs the published lists,
 * not the excerpts the tests use.
 */
export function fullListsDirOrSkip(given: string | undefined): string {
  const dir =
    given ??
    process.env.SANCTIONS_DATA_DIR ??
    fileURLToPath(new URL('../../shared/data/sanctions', import.meta.url));
  if (!existsSync(dir)) {
    console.log(
      `skipped: the full sanctions lists are not at ${dir} (set SANCTIONS_DATA_DIR or pass a directory)`,
    );
    process.exit(0);
  }
  return dir;
}

/** The stock of ordinary names by culture (eval-data/ordinary-names.json, without its `_` notes). */
export function ordinaryNameCultures(): Record<string, NameCulture> {
  const stock = JSON.parse(
    readFileSync(new URL('./eval-data/ordinary-names.json', import.meta.url), 'utf8'),
  ) as Record<string, NameCulture | string>;
  return Object.fromEntries(Object.entries(stock).filter(([key]) => !key.startsWith('_'))) as Record<
    string,
    NameCulture
  >;
}

/** Groups of Latin spellings of one name word (eval-data/transliterations.json; see eval-data/MANIFEST.txt). */
export function transliterationGroups(): string[][] {
  const table = JSON.parse(
    readFileSync(new URL('./eval-data/transliterations.json', import.meta.url), 'utf8'),
  ) as { groups: string[][] };
  return table.groups;
}
