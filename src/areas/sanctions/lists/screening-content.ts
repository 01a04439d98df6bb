import { createHash } from 'node:crypto';
import { sha256 } from '../../../platform/digest.js';
import type { SanctionsEntity } from './entity.js';

/**
 * What of an entity screening reads: its type, every name (with its quality and script), dates of birth and
 * nationalities. A change to any of them is a change a player must be screened against; a new programme or address
 * is not. Sorted, so a list that reorders an entity's aliases has not changed it.
 */
export function screeningContent(entity: SanctionsEntity) {
  const sorted = (values: string[]) => [...new Set(values)].sort();
  return {
    type: entity.type,
    names: sorted(entity.names.map((n) => `${n.quality}${n.non_latin ? '*' : ''}:${n.name}`)),
    dates_of_birth: sorted(
      entity.dates_of_birth.map((d) => `${d.kind}:${d.from}:${d.to}${d.approximate ? '~' : ''}`),
    ),
    nationalities: sorted(entity.nationalities),
    citizenships: sorted(entity.citizenships),
  };
}

/** The digest of an entity's screening-relevant content: equal digests, the same entity to a screening. */
export const entityDigest = (entity: SanctionsEntity): string =>
  sha256(JSON.stringify(screeningContent(entity))).slice(0, 32);

/** The digest of a whole publication: its entities' ids and digests, in id order. */
export function publicationDigest(digests: ReadonlyMap<string, string>): string {
  const hash = createHash('sha256');
  for (const id of [...digests.keys()].sort()) hash.update(`${id}\t${digests.get(id)}\n`);
  return hash.digest('hex').slice(0, 32);
}

export interface ListComparison {
  added: string[];
  changed: string[];
  removed: string[];
}

/** Entities added, changed (screening content) and removed between two versions of a list, each by entity id. */
export function compareVersions(
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>,
): ListComparison {
  const added: string[] = [];
  const changed: string[] = [];
  for (const [id, digest] of after) {
    const previous = before.get(id);
    if (previous === undefined) added.push(id);
    else if (previous !== digest) changed.push(id);
  }
  const removed = [...before.keys()].filter((id) => !after.has(id));
  return { added: added.sort(), changed: changed.sort(), removed: removed.sort() };
}
