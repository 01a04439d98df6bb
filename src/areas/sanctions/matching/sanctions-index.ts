import type { SanctionsEntityType, SanctionsListPublication } from '../lists/entity.js';
import { ALIAS_QUALITIES, buildIndexData, ENTITY_TYPES, type IndexData } from './build-index.js';
import { CandidateScratch, expandToken, TrigramScratch } from './candidates.js';
import {
  compareDateOfBirth,
  compareNationality,
  DATE_OF_BIRTH_ADJUSTMENT,
  NATIONALITY_ADJUSTMENT,
} from './evidence.js';
import { scoreNameTokens } from './name-score.js';
import { normaliseName } from './normalise.js';
import { tokenInfo, tokenSimilarity, type TokenInfo } from './token-similarity.js';
import { Vocabulary } from './vocabulary.js';
import {
  BORDERLINE_BAND,
  DEFAULT_HIT_THRESHOLD,
  WEAK_ALIAS_MARGIN,
  type SanctionsIndexMatch,
  type SanctionsScreening,
  type ScreeningQuery,
  type ScreenOptions,
} from './types.js';

const MAX_CORROBORATION =
  Math.max(...Object.values(DATE_OF_BIRTH_ADJUSTMENT)) + Math.max(...Object.values(NATIONALITY_ADJUSTMENT));
const round = (score: number) => Math.round(score * 1000) / 1000;

/**
 * What one query token resolves to against an index: its keys, the vocabulary tokens resembling it (ranking reads
 * these only) and its similarity to every vocabulary token scored against it so far.
 */
interface TokenLookup {
  info: TokenInfo;
  expansion: ReadonlyMap<number, number>;
  similarities: Map<number, number>;
}

export interface SanctionsIndexOptions {
  /**
   * Keeps each distinct query token's look-up for the index's life, up to this many tokens (then starts again). For
   * an index screened against a whole population (a list change's): names repeat, so most players cost a few map
   * reads. Off for the index of the lists in force, whose look-ups are many and rarely repeat within its life.
   */
  rememberTokens?: number;
}

/** The in-memory matcher over loaded sanctions lists. Read-only once built; rebuild and swap to reload. */
export class SanctionsIndex {
  private readonly scratch: CandidateScratch;
  private readonly trigramScratch: TrigramScratch;

  private readonly remembered = new Map<string, TokenLookup>();

  private constructor(
    private readonly data: IndexData,
    private readonly options: SanctionsIndexOptions,
  ) {
    this.scratch = new CandidateScratch(data.nameText.length);
    this.trigramScratch = new TrigramScratch(data.vocabulary.tokens.length);
  }

  static build(
    publications: SanctionsListPublication[],
    options: SanctionsIndexOptions = {},
  ): SanctionsIndex {
    return new SanctionsIndex(buildIndexData(publications), options);
  }

  get list_versions(): Record<string, string> {
    return { ...this.data.list_versions };
  }

  get stats(): { entities: number; names: number; tokens: number } {
    return {
      entities: this.data.entities.length,
      names: this.data.nameText.length,
      tokens: this.data.vocabulary.tokens.length,
    };
  }

  /** Screens a subject: the listed entities whose names resemble theirs, scored 0–1, best first. */
  screen(query: ScreeningQuery, options: ScreenOptions = {}): SanctionsScreening {
    const threshold = options.threshold ?? DEFAULT_HIT_THRESHOLD;
    const floor = options.min_score ?? (options.include_borderline ? threshold - BORDERLINE_BAND : threshold);
    const types = new Set<SanctionsEntityType>(options.types ?? ['person']);
    const allowedTypes = ENTITY_TYPES.map((type) => types.has(type));
    // Legal-form words are dropped from the query too when only organisations are screened.
    const queryType = types.has('person') ? 'person' : 'entity';
    const { tokens, abjad } = normaliseName(`${query.first_name} ${query.last_name}`, queryType);
    const lookups = tokens.map((token, i) => this.lookUp(token, abjad[i] ?? false, true));
    const queryTokens = lookups.map((lookup) => lookup.info);
    // Adjacent query tokens written together, to reach names that join them ("Abdul Rahman" → "Abdulrahman").
    const joined = queryTokens
      .slice(1)
      .map((token, i) =>
        this.lookUp(queryTokens[i]!.text + token.text, queryTokens[i]!.abjad || token.abjad, false),
      );
    const candidates = this.scratch.rankNames(
      this.data,
      [...lookups, ...joined].map((lookup) => lookup.expansion),
      (nameId) => Boolean(allowedTypes[this.data.nameType[nameId] ?? 0]),
    );

    const similarities = lookups.map((lookup) => lookup.similarities);
    const best = new Map<number, SanctionsIndexMatch>();
    for (const nameId of candidates) {
      const match = this.scoreCandidate(nameId, queryTokens, similarities, query, threshold, floor);
      if (match === undefined) continue;
      const entityId = this.data.nameEntity[nameId] ?? 0;
      if (match.score > (best.get(entityId)?.score ?? -1)) best.set(entityId, match);
    }
    const matches = [...best.values()].sort((a, b) => b.score - a.score).slice(0, options.limit ?? 20);
    return { matches, list_versions: this.list_versions, compared_names: candidates.length };
  }

  /** A query token's look-up, remembered when the index is built to remember them. */
  private lookUp(text: string, abjad: boolean, fuzzy: boolean): TokenLookup {
    const limit = this.options.rememberTokens ?? 0;
    if (limit === 0) return this.resolve(text, abjad, fuzzy);
    // A joined pair is looked up without the fuzzy keys: its own entry.
    const key = `${fuzzy ? '' : '+'}${Vocabulary.key(text, abjad)}`;
    let lookup = this.remembered.get(key);
    if (!lookup) {
      if (this.remembered.size >= limit) this.remembered.clear();
      lookup = this.resolve(text, abjad, fuzzy);
      this.remembered.set(key, lookup);
    }
    return lookup;
  }

  private resolve(text: string, abjad: boolean, fuzzy: boolean): TokenLookup {
    const info = tokenInfo(text, abjad);
    const expansion = expandToken(this.data, info, this.trigramScratch, fuzzy);
    return { info, expansion, similarities: new Map(expansion) };
  }

  private scoreCandidate(
    nameId: number,
    queryTokens: TokenInfo[],
    similarities: Array<Map<number, number>>,
    query: ScreeningQuery,
    threshold: number,
    floor: number,
  ): SanctionsIndexMatch | undefined {
    const { data } = this;
    const tokenIds = data.nameTokens.get(nameId);
    const nameTokens = Array.from(tokenIds, (id) => data.vocabulary.tokens[id] as TokenInfo);
    const nameScore = scoreNameTokens(queryTokens, nameTokens, (i, j) => {
      const cache = similarities[i] as Map<number, number>;
      const id = tokenIds[j] as number;
      let similarity = cache.get(id);
      if (similarity === undefined) {
        similarity = tokenSimilarity(queryTokens[i] as TokenInfo, nameTokens[j] as TokenInfo);
        cache.set(id, similarity);
      }
      return similarity;
    });
    // Corroboration adds at most this much; a name that cannot reach the floor even so is not worth the evidence.
    if (nameScore + MAX_CORROBORATION < floor) return undefined;
    const entity = data.entities[data.nameEntity[nameId] ?? 0]!;
    const dateOfBirth = compareDateOfBirth(query.date_of_birth, entity);
    const nationality = compareNationality(query.nationality, entity);
    let score = nameScore + DATE_OF_BIRTH_ADJUSTMENT[dateOfBirth] + NATIONALITY_ADJUSTMENT[nationality];
    score = Math.max(0, Math.min(1, score));
    const quality = ALIAS_QUALITIES[data.nameQuality[nameId] ?? 0] ?? 'primary';
    const weakCap = threshold - WEAK_ALIAS_MARGIN;
    const weakAliasCapped = quality === 'weak' && score > weakCap;
    if (weakAliasCapped) score = weakCap;
    score = round(score);
    if (score < floor) return undefined;
    const matchedName = data.nameText[nameId] ?? '';
    return {
      list: entity.list,
      list_entity_id: entity.list_entity_id,
      entity_type: entity.type,
      primary_name: entity.primary_name,
      matched_name: matchedName,
      score,
      band: score >= threshold ? 'hit' : 'borderline',
      programmes: entity.programmes,
      evidence: {
        matched_name: matchedName,
        matched_name_quality: quality,
        matched_name_non_latin: data.nameNonLatin[nameId] === 1,
        name_score: round(nameScore),
        date_of_birth: dateOfBirth,
        nationality,
        weak_alias_capped: weakAliasCapped,
      },
    };
  }
}

/** Builds the matcher's index over the publications in force (one per list). */
export function buildSanctionsIndex(
  publications: SanctionsListPublication[],
  options: SanctionsIndexOptions = {},
): SanctionsIndex {
  return SanctionsIndex.build(publications, options);
}
