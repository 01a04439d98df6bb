import type { SanctionsMatcher } from '../sanctions.matcher.js';
import type { SanctionsIndex } from './sanctions-index.js';
import { DEFAULT_HIT_THRESHOLD } from './types.js';

/**
 * The service's `SanctionsMatcher` over the current index. `currentIndex` is read on every screening, so a reload
 * swaps the index atomically by replacing what it returns; a screening in progress keeps the index it started with.
 */
export function productionSanctionsMatcher(
  currentIndex: () => SanctionsIndex,
  options: { threshold?: number } = {},
): SanctionsMatcher {
  const threshold = options.threshold ?? DEFAULT_HIT_THRESHOLD;
  return {
    kind: 'production',
    async screen(subject) {
      const { matches, list_versions } = currentIndex().screen(subject, { threshold });
      return {
        matches: matches.map((match) => ({
          list: match.list,
          entity_id: match.list_entity_id,
          name: match.matched_name,
          score: match.score,
        })),
        list_versions,
      };
    },
  };
}
