import type { ListVersion, SanctionsMatcher } from '../sanctions.matcher.js';
import type { SanctionsIndex } from './sanctions-index.js';
import { DEFAULT_HIT_THRESHOLD } from './types.js';

/** An index as served: the index and the publication of each list it was built from. */
export interface ServedIndex {
  index: SanctionsIndex;
  list_versions: Record<string, ListVersion>;
}

/** The versions an index states itself (dates only), for callers that hold no more than the index. */
export const servedIndex = (index: SanctionsIndex): ServedIndex => ({
  index,
  list_versions: Object.fromEntries(
    Object.entries(index.list_versions).map(([list, published_on]) => [
      list,
      { published_on, format: 'unknown', files: [] },
    ]),
  ),
});

/**
 * The service's `SanctionsMatcher` over the current index. `current` is read once per screening, so a reload swaps
 * the index atomically by replacing what it returns; a screening in progress keeps the index it started with.
 * Matches carry the evidence for the back-office reviewer (never for the tenant: tipping-off).
 */
export function productionSanctionsMatcher(
  current: () => ServedIndex,
  options: { threshold?: number } = {},
): SanctionsMatcher {
  const threshold = options.threshold ?? DEFAULT_HIT_THRESHOLD;
  return {
    kind: 'production',
    async screen(subject) {
      const { index, list_versions } = current();
      const { matches } = index.screen(subject, { threshold });
      return {
        matches: matches.map((match) => ({
          list: match.list,
          entity_id: match.list_entity_id,
          name: match.matched_name,
          score: match.score,
          entity_type: match.entity_type,
          primary_name: match.primary_name,
          programmes: match.programmes,
          matched_name_quality: match.evidence.matched_name_quality,
          matched_name_non_latin: match.evidence.matched_name_non_latin,
          name_score: match.evidence.name_score,
          date_of_birth: match.evidence.date_of_birth,
          nationality: match.evidence.nationality,
          weak_alias_capped: match.evidence.weak_alias_capped,
          ...(list_versions[match.list] && { list_published_on: list_versions[match.list]!.published_on }),
        })),
        list_versions,
      };
    },
  };
}
