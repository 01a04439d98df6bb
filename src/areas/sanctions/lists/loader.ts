import { readdir, readFile, stat } from 'node:fs/promises';
import { join, posix, relative, sep } from 'node:path';
import { parseUtcDay, utcDay } from '../../../platform/utc-calendar.js';
import type { SanctionsListId, SanctionsListPublication } from './entity.js';
import { detectFormat } from './detect.js';
import { parseOfacCsvSet, type OfacCsvSet } from './ofac-csv.parser.js';
import { isoDay } from './source.js';

export interface LoadedSanctionsLists {
  /** In force: the newest publication of each list. */
  publications: SanctionsListPublication[];
  superseded: Array<Pick<SanctionsListPublication, 'list' | 'format' | 'published_on' | 'files'>>;
  /** Not a list file, or a format we do not read (xlsx). */
  skipped: Array<{ file: string; reason: string }>;
  /** Looked like a list, failed to parse. */
  failures: Array<{ file: string; list?: SanctionsListId; format?: string; error: string }>;
}

type Log = (msg: string, details?: object) => void;

/** Among publications of one list stating the same date, the richer format wins (then the path, for stability). */
const FORMAT_PREFERENCE = [
  'ofac_xml',
  'ofac_csv',
  'uk_fcdo_xml',
  'uk_conlist_csv',
  'eu_fsf_1_1',
  'eu_fsf_1_0',
];
const preference = (format: string) => {
  const rank = FORMAT_PREFERENCE.findIndex((f) => format.startsWith(f));
  return rank < 0 ? FORMAT_PREFERENCE.length : rank;
};

/** Hidden files and folders are never lists: downloads in progress live there until they are validated. */
export const isHidden = (relativePath: string) =>
  relativePath.split(/[\\/]/).some((part) => part.startsWith('.'));

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join(posix.sep))
    .filter((file) => !isHidden(file))
    .sort();
}

/**
 * The OFAC legacy CSV states no publication date. The date comes from the set's path (a YYYY-MM-DD or YYYYMMDD in
 * a folder or file name, the one nearest the file), else from sdn.csv's modification time.
 */
async function ofacCsvDate(dir: string, sdnPath: string): Promise<string> {
  const candidates = [...sdnPath.matchAll(/(?<!\d)(\d{4})-?(\d{2})-?(\d{2})(?!\d)/g)].reverse();
  for (const [, y, m, d] of candidates) {
    const day = `${y}-${m}-${d}`;
    if (isoDay(day) && !Number.isNaN(parseUtcDay(day).getTime())) return day;
  }
  return utcDay((await stat(join(dir, sdnPath))).mtime);
}

/**
 * Reads every sanctions list under `dir` (recursively) and keeps, per list, the publication with the newest date
 * the list itself states. A file that fails to parse is reported in `failures`; the loader itself never throws.
 */
export async function loadSanctionsDirectory(
  dir: string,
  options?: { log?: Log },
): Promise<LoadedSanctionsLists> {
  const log: Log = options?.log ?? (() => {});
  const result: LoadedSanctionsLists = { publications: [], superseded: [], skipped: [], failures: [] };
  let paths: string[];
  try {
    paths = await listFiles(dir);
  } catch (error) {
    result.failures.push({
      file: dir,
      error: `cannot read the lists directory: ${(error as Error).message}`,
    });
    log('sanctions lists directory unreadable', { dir, error: (error as Error).message });
    return result;
  }

  const parsed: SanctionsListPublication[] = [];
  const ofacSets = new Map<string, Partial<OfacCsvSet>>();
  for (const path of paths) {
    try {
      const bytes = await readFile(join(dir, path));
      const detected = detectFormat(path, bytes);
      if (detected.kind === 'skipped') result.skipped.push({ file: path, reason: detected.reason });
      else if (detected.kind === 'ofac_csv') {
        const folder = posix.dirname(path);
        const set = ofacSets.get(folder) ?? {};
        set[detected.role] = { path, bytes };
        ofacSets.set(folder, set);
      } else {
        try {
          parsed.push(detected.parse());
        } catch (error) {
          const failure = {
            file: path,
            list: detected.list,
            format: detected.format,
            error: (error as Error).message,
          };
          result.failures.push(failure);
          log('sanctions list file failed to parse', failure);
        }
      }
    } catch (error) {
      result.failures.push({ file: path, error: (error as Error).message });
      log('sanctions list file unreadable', { file: path, error: (error as Error).message });
    }
  }

  for (const [folder, set] of ofacSets) {
    if (!set.sdn) {
      for (const part of [set.alt, set.add, set.comments]) {
        if (part)
          result.skipped.push({ file: part.path, reason: `OFAC CSV file without an sdn.csv in ${folder}` });
      }
      continue;
    }
    try {
      parsed.push(parseOfacCsvSet(set as OfacCsvSet, await ofacCsvDate(dir, set.sdn.path)));
    } catch (error) {
      const failure = {
        file: set.sdn.path,
        list: 'ofac_sdn' as const,
        format: 'ofac_csv',
        error: (error as Error).message,
      };
      result.failures.push(failure);
      log('sanctions list file failed to parse', failure);
    }
  }

  // Newest stated date first; on a tie the preferred format, then the path.
  parsed.sort(
    (a, b) =>
      b.published_on.localeCompare(a.published_on) ||
      preference(a.format) - preference(b.format) ||
      (a.files[0] ?? '').localeCompare(b.files[0] ?? ''),
  );
  const inForce = new Set<SanctionsListId>();
  for (const publication of parsed) {
    const { list, format, published_on, files } = publication;
    if (inForce.has(list)) {
      result.superseded.push({ list, format, published_on, files });
      continue;
    }
    inForce.add(list);
    result.publications.push(publication);
    log('sanctions list loaded', {
      list,
      format,
      published_on,
      files,
      entities: publication.entities.length,
    });
  }
  for (const skipped of result.skipped) log('sanctions directory file skipped', skipped);
  return result;
}
