/**
 * The list change the benchmark screens: a new publication of OFAC's SDN list (legacy CSV set) written beside the
 * one in force, as an operator or the scheduled download puts one in the lists directory. Of its 1,000 changed
 * entities, half are added (real persons of the list under new ids, a few renamed as planted players) and half are
 * changed (an alias added in alt.csv: a name-order variant, or for a few a planted player's name). Entities any
 * ordinary name could reach (the benchmark's players are drawn from the same stock) are left out, so the hits are
 * exactly the planted players.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { SanctionsEntity } from '../../src/areas/sanctions/lists/entity.js';
import { parseOfacCsvSet } from '../../src/areas/sanctions/lists/ofac-csv.parser.js';
import { parseCsv } from '../../src/areas/sanctions/lists/source.js';
import { buildSanctionsIndex } from '../../src/areas/sanctions/matching/sanctions-index.js';
import { ordinaryNameCultures } from '../../scripts/eval-inputs.js';
import { prng } from '../lib/stats.js';

/** A seeded player the change must match: a name no ordinary player has, and the entity's date of birth. */
export interface PlantedPlayer {
  first_name: string;
  last_name: string;
  date_of_birth: string;
  nationality: string;
  entity_id: string;
  change: 'added' | 'changed';
}

export interface ListChange {
  /** The new publication's folder, relative to the lists directory. */
  folder: string;
  /** Moves the publication, written under a hidden name, into place: from then on the service can load it. */
  publish: () => void;
  added: number;
  changed: number;
  planted: PlantedPlayer[];
  /** An entity of the list the change leaves alone: the matches of the seeded cleared cases. */
  untouched: { entity_id: string; name: string };
  /** Candidates left out because an ordinary name scored within reach of the threshold against them. */
  leftOut: number;
}

const GIVEN = [
  'Quorin',
  'Vasmira',
  'Teodrik',
  'Ysolde',
  'Kasimir',
  'Orlaith',
  'Benedek',
  'Ziraen',
  'Malvora',
];
const FAMILY = ['Oakenfold', 'Draxmoor', 'Vellacourt', 'Quennell', 'Harkspur', 'Wintermere', 'Fenwrick'];
/** The DOS end-of-file byte that closes OFAC's legacy CSV files. */
const END_OF_FILE = String.fromCharCode(0x1a);
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** Within reach: date of birth and nationality agreeing add at most 0.11 to a name's score (evidence.ts). */
const REACH = 0.85 - 0.13;

/** As OFAC writes them: numbers and the empty cell (`-0-`) bare (the format is told by a first cell of digits). */
const quote = (cell: string) =>
  /^\d+$/.test(cell) ? cell : cell === '-0-' ? '-0- ' : `"${cell.replace(/"/g, '""')}"`;
const csvLine = (cells: string[]) => cells.map(quote).join(',');
/** Bytes kept as they are: latin1 maps each byte to one character and back (the file is cp1252). */
const latin1 = (file: string) => fs.readFileSync(file).toString('latin1');

/** The newest legacy SDN CSV folder under `dir` (the one in force). */
function sdnFolder(dir: string): string {
  const ofac = path.join(dir, 'ofac');
  const folders = fs
    .readdirSync(ofac)
    .filter((f) => /^sdn_csv_\d{4}-\d{2}-\d{2}$/.test(f) && fs.existsSync(path.join(ofac, f, 'sdn.csv')))
    .sort();
  if (folders.length === 0) throw new Error(`no ofac/sdn_csv_YYYY-MM-DD/sdn.csv under ${dir}`);
  return path.join('ofac', folders.at(-1)!);
}

const nextDay = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
const ofacDate = (day: string) =>
  `${day.slice(8, 10)} ${MONTHS[Number(day.slice(5, 7)) - 1]} ${day.slice(0, 4)}`;

/**
 * Writes the new publication into `dir` under a hidden name (a folder dated the day after the one in force, which
 * `publish` moves into place whole) and returns what it changes. `perKind` entities are added and as many changed;
 * `plantedPerKind` of each match a player.
 */
export function writeListChange(dir: string, perKind: number, plantedPerKind: number): ListChange {
  const from = sdnFolder(dir);
  const text = latin1(path.join(dir, from, 'sdn.csv')).replace(END_OF_FILE, '');
  const rows = parseCsv<string[]>(text, false).rows.filter((r) => /^\d+$/.test(r[0]?.trim() ?? ''));
  const original = parseOfacCsvSet(
    { sdn: { path: 'sdn.csv', bytes: Buffer.from(text, 'latin1') } },
    '2000-01-01',
  );
  const byId = new Map(original.entities.map((e) => [e.list_entity_id, e]));
  const random = prng(31);
  const shuffled = rows
    .map((row) => ({ row, key: random() }))
    .sort((a, b) => a.key - b.key)
    .map((r) => r.row);
  const persons = shuffled.filter((r) => byId.get(r[0]!.trim())?.type === 'person');
  const exactDob = (id: string) => byId.get(id)?.dates_of_birth.find((d) => d.kind === 'exact');
  // Candidates: half again as many as needed, for those an ordinary name could reach.
  const want = Math.ceil(perKind * 1.5);
  const addedPool = persons.slice(0, want);
  const taken = new Set(addedPool.map((r) => r[0]!.trim()));
  // From the other end of the shuffle (the added are its first persons); names of two words or more, so that the
  // alias (the words in another order) is a name the entity did not have.
  const changedPool = shuffled
    .filter((r) => !taken.has(r[0]!.trim()) && r[1]!.trim().includes(' '))
    .reverse()
    .slice(0, want);
  const maxId = Math.max(...rows.map((r) => Number(r[0])));
  const names = (i: number) => ({
    first: GIVEN[i % GIVEN.length]!,
    last: FAMILY[Math.floor(i / GIVEN.length) % FAMILY.length]!,
  });

  const planted: PlantedPlayer[] = [];
  const addedRows = addedPool.map((row, i) => {
    const cells = row.map((c) => c.trim());
    cells[0] = String(maxId + 1 + i);
    if (i < plantedPerKind) {
      const { first, last } = names(i);
      const day = `19${60 + (i % 30)}-0${1 + (i % 9)}-1${i % 10}`;
      cells[1] = `${last.toUpperCase()}, ${first}`;
      cells[11] = `DOB ${ofacDate(day)}.`;
      planted.push({
        first_name: first,
        last_name: last,
        date_of_birth: day,
        nationality: 'GB',
        entity_id: cells[0],
        change: 'added',
      });
    }
    return cells;
  });
  const render = (added: string[][], aliases: string[][]) => ({
    sdn: Buffer.from(
      `${text.replace(/\r?\n?$/, '')}\r\n${added.map(csvLine).join('\r\n')}\r\n${END_OF_FILE}`,
      'latin1',
    ),
    alt: Buffer.from(`${aliases.map(csvLine).join('\r\n')}\r\n${END_OF_FILE}`, 'latin1'),
  });
  const reorderedAlias = (name: string) =>
    name.includes(', ') ? name.split(', ').reverse().join(' ') : name.split(' ').reverse().join(' ');
  // Every candidate an ordinary name scores within reach of the threshold against (a changed entity is screened
  // whole: its names in force and the alias added), found before planting so that no planted entity is one of them.
  const candidateIds = new Set([...addedRows.map((r) => r[0]!), ...changedPool.map((r) => r[0]!.trim())]);
  const draft = render(
    addedRows,
    changedPool.map((row, i) => [
      row[0]!.trim(),
      String(900_000 + i),
      'aka',
      reorderedAlias(row[1]!.trim()),
      '-0-',
    ]),
  );
  const reachable = ordinaryReach(
    parseOfacCsvSet(
      { sdn: { path: 'sdn.csv', bytes: draft.sdn }, alt: { path: 'alt.csv', bytes: draft.alt } },
      '2000-01-01',
    ).entities.filter((e) => candidateIds.has(e.list_entity_id)),
  );
  const plantedChanged = changedPool
    .map((r) => r[0]!.trim())
    .filter((id) => exactDob(id) && !reachable.has(id))
    .slice(0, plantedPerKind);
  const aliasRows = changedPool.map((row, i) => {
    const id = row[0]!.trim();
    let alias = reorderedAlias(row[1]!.trim());
    const plantedAt = plantedChanged.indexOf(id);
    if (plantedAt >= 0) {
      const { first, last } = names(plantedPerKind + plantedAt);
      alias = `${first} ${last.toUpperCase()}`;
      const entity = byId.get(id)!;
      planted.push({
        first_name: first,
        last_name: last,
        date_of_birth: exactDob(id)!.from,
        nationality: entity.nationalities.find((n) => /^[A-Z]{2}$/.test(n)) ?? 'GB',
        entity_id: id,
        change: 'changed',
      });
    }
    return [id, String(900_000 + i), 'aka', alias, '-0-'];
  });

  const plantedIds = new Set(planted.map((p) => p.entity_id));
  const keep = (rowsOf: string[][]) =>
    rowsOf.filter((r) => plantedIds.has(r[0]!) || !reachable.has(r[0]!)).slice(0, perKind);
  const added = keep(addedRows);
  const aliases = keep(aliasRows);
  if (added.length < perKind || aliases.length < perKind)
    throw new Error(
      `only ${added.length} added and ${aliases.length} changed entities out of reach of ordinary names`,
    );

  const day = nextDay(from.slice(-10));
  const folder = path.join('ofac', `sdn_csv_${day}`);
  const files = render(added, aliases);
  // Written under a hidden name (the loader skips it) and renamed into place: no process reads half a publication.
  const staging = path.join(dir, 'ofac', `.staging-${day}`);
  fs.mkdirSync(staging, { recursive: true });
  fs.writeFileSync(path.join(staging, 'sdn.csv'), files.sdn);
  fs.writeFileSync(path.join(staging, 'alt.csv'), files.alt);
  const changedIds = new Set(aliases.map((r) => r[0]!));
  const untouchedRow = shuffled.find(
    (r) =>
      byId.get(r[0]!.trim())?.type === 'person' && !changedIds.has(r[0]!.trim()) && !taken.has(r[0]!.trim()),
  )!;
  return {
    folder,
    publish: () => fs.renameSync(staging, path.join(dir, folder)),
    added: added.length,
    changed: aliases.length,
    planted,
    untouched: { entity_id: untouchedRow[0]!.trim(), name: untouchedRow[1]!.trim() },
    leftOut: [...reachable].filter((id) => !plantedIds.has(id)).length,
  };
}

/** The entities some ordinary name (every given name and surname pair of the stock) scores within reach of. */
function ordinaryReach(entities: SanctionsEntity[]): Set<string> {
  const index = buildSanctionsIndex(
    [{ list: 'ofac_sdn', format: 'ofac_csv', published_on: '2000-01-01', files: [], entities }],
    { rememberTokens: 100_000 },
  );
  const reached = new Set<string>();
  for (const stock of Object.values(ordinaryNameCultures())) {
    for (const first_name of stock.given) {
      for (const last_name of stock.surnames) {
        for (const match of index.screen({ first_name, last_name }, { threshold: REACH }).matches)
          reached.add(match.list_entity_id);
      }
    }
  }
  return reached;
}
