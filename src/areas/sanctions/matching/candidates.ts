import type { IndexData } from './build-index.js';
import { CANONICAL_PREFIXES, PARTICLES } from './stop-words.js';
import { withinOneEdit as withinOneSlip } from './similarity.js';
import { tokenSimilarity, type TokenInfo } from './token-similarity.js';
import { trigrams, type Vocabulary } from './vocabulary.js';

/** How many list names are scored in full per screening, best-ranked first. */
export const CANDIDATE_LIMIT = 100;
// Keys shared by more tokens than this are too common to narrow anything (e.g. the skeleton "mr").
const MAX_KEY_TOKENS = 4000;

/** Counters over the vocabulary for trigram overlap, reused across look-ups so none allocates per token. */
export class TrigramScratch {
  private readonly overlap: Uint8Array;
  private readonly stamps: Uint32Array;
  private stamp = 0;

  constructor(tokens: number) {
    this.overlap = new Uint8Array(tokens);
    this.stamps = new Uint32Array(tokens);
  }

  /** Tokens of about the query's length sharing at least `needed` of its trigrams. */
  lookup(data: IndexData, text: string, needed: number): number[] {
    const { vocabulary } = data;
    this.stamp++;
    const found: number[] = [];
    const count = (id: number) => {
      if (this.stamps[id] !== this.stamp) {
        this.stamps[id] = this.stamp;
        this.overlap[id] = 0;
      }
      if (++this.overlap[id]! === needed) found.push(id);
    };
    // One typo changes the length by at most one; allow two for a doubled letter.
    for (const gram of trigrams(text))
      vocabulary.forEachWithTrigram(gram, Math.max(1, text.length - 2), text.length + 2, count);
    return found;
  }
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/**
 * Latin vocabulary tokens one slip away from `text` (a letter replaced, added, dropped, or two neighbours
 * swapped), looked up by exact text. Used where trigrams cannot see the slip: short tokens (a four-letter token
 * has too few trigrams) and swapped letters (a swap destroys four).
 */
function oneSlipAway(vocabulary: Vocabulary, text: string, swapsOnly: boolean): number[] {
  const found: number[] = [];
  const look = (candidate: string) => {
    const id = vocabulary.idOf(candidate, false);
    if (id !== undefined) found.push(id);
  };
  for (let i = 0; i + 1 < text.length; i++)
    look(text.slice(0, i) + text[i + 1] + text[i] + text.slice(i + 2));
  if (swapsOnly) return found;
  for (let i = 0; i < text.length; i++) look(text.slice(0, i) + text.slice(i + 1));
  for (let i = 0; i <= text.length; i++) {
    for (const letter of LETTERS) {
      look(text.slice(0, i) + letter + text.slice(i));
      if (i < text.length && letter !== text[i]) look(text.slice(0, i) + letter + text.slice(i + 1));
    }
  }
  return found;
}

/**
 * Other written forms of a query token the normaliser shortens or strips elsewhere: with an Arabic article
 * joined ("Alzaidi" / "zaidi") or without, and a canonical prefix with a slip in it ("Abdlu Rahman" / "abd").
 */
function relatedForms(vocabulary: Vocabulary, text: string): number[] {
  const forms: string[] = [];
  for (const article of ['al', 'el']) {
    if (text.startsWith(article) && text.length >= article.length + 3) forms.push(text.slice(article.length));
    if (text.length >= 3) forms.push(article + text);
  }
  for (const { canonical, written } of CANONICAL_PREFIXES) {
    if (text.startsWith(canonical)) continue;
    for (const form of written) {
      for (let length = form.length - 1; length <= form.length + 1; length++) {
        const rest = text.slice(length);
        if (rest.length > 0 && rest.length < 3) continue;
        if (withinOneSlip(text.slice(0, length), form)) forms.push(canonical + rest);
      }
    }
  }
  return forms
    .filter((form) => !PARTICLES.has(form))
    .map((form) => vocabulary.idOf(form, false))
    .filter((id): id is number => id !== undefined);
}

/**
 * Vocabulary tokens resembling one query token, with their similarity: by exact text, consonant skeleton and
 * Double Metaphone code, and (`fuzzy`) by shared trigrams, which finds one-typo variants.
 */
export function expandToken(
  data: IndexData,
  query: TokenInfo,
  trigramScratch: TrigramScratch,
  fuzzy = true,
): Map<number, number> {
  const { vocabulary } = data;
  const found = new Map<number, number>();
  const consider = (ids: Iterable<number> | undefined) => {
    if (ids === undefined) return;
    for (const id of ids) {
      if (found.has(id)) continue;
      found.set(id, tokenSimilarity(query, vocabulary.tokens[id] as TokenInfo));
    }
  };
  const exact = vocabulary.idOf(query.text, query.abjad);
  if (exact !== undefined) found.set(exact, 1);
  const limited = (ids: number[] | undefined) =>
    ids !== undefined && ids.length <= MAX_KEY_TOKENS ? ids : undefined;
  if (query.skeleton.length >= 2 || query.abjad) consider(limited(vocabulary.bySkeleton.get(query.skeleton)));
  if (query.metaphone.length >= 2) consider(limited(vocabulary.byMetaphone.get(query.metaphone)));
  if (fuzzy && !query.abjad) {
    if (query.text.length >= 5) {
      // A replaced, added or dropped letter destroys at most three trigrams; a swap four, found by swapping.
      consider(trigramScratch.lookup(data, query.text, Math.max(2, query.text.length - 3)));
      consider(oneSlipAway(vocabulary, query.text, true));
    } else if (query.text.length >= 3) {
      consider(oneSlipAway(vocabulary, query.text, false));
    }
    consider(relatedForms(vocabulary, query.text));
  } else if (fuzzy && query.text.length >= 5) {
    consider(trigramScratch.lookup(data, query.text, Math.max(2, query.text.length - 3)));
  }
  for (const [id, similarity] of found) if (similarity === 0) found.delete(id);
  return found;
}

/** Reusable per-screening tables, sized to the index, so candidate ranking allocates nothing per name. */
export class CandidateScratch {
  private readonly rank: Float32Array;
  private readonly probeBest: Float32Array;
  private readonly probeStamp: Uint32Array;
  private readonly seenStamp: Uint32Array;
  private stamp = 0;
  private screening = 0;

  constructor(names: number) {
    this.rank = new Float32Array(names);
    this.probeBest = new Float32Array(names);
    this.probeStamp = new Uint32Array(names);
    this.seenStamp = new Uint32Array(names);
  }

  /**
   * Names sharing a token (or a resembling one) with the query, ranked by the rare-token weight they share, best
   * `limit` first. `probes` are the query's token expansions; `allowed` filters by entity type.
   */
  rankNames(
    data: IndexData,
    probes: Array<ReadonlyMap<number, number>>,
    allowed: (nameId: number) => boolean,
  ): number[] {
    this.screening++;
    const touched: number[] = [];
    for (const probe of probes) {
      this.stamp++;
      for (const [tokenId, similarity] of probe) {
        const weight = similarity * (data.idf[tokenId] ?? 0);
        for (const nameId of data.postings.get(tokenId)) {
          if (this.seenStamp[nameId] !== this.screening) {
            if (!allowed(nameId)) continue;
            this.seenStamp[nameId] = this.screening;
            this.rank[nameId] = 0;
            touched.push(nameId);
          }
          // Per probe a name counts once, at its best-resembling token.
          if (this.probeStamp[nameId] !== this.stamp) {
            this.probeStamp[nameId] = this.stamp;
            this.probeBest[nameId] = weight;
            this.rank[nameId] = (this.rank[nameId] ?? 0) + weight;
          } else if (weight > (this.probeBest[nameId] ?? 0)) {
            this.rank[nameId] = (this.rank[nameId] ?? 0) + weight - (this.probeBest[nameId] ?? 0);
            this.probeBest[nameId] = weight;
          }
        }
      }
    }
    // Longer names dilute a shared token, so among equals the shorter name ranks first.
    const score = (nameId: number) => (this.rank[nameId] ?? 0) / (1 + 0.1 * data.nameTokens.size(nameId));
    if (touched.length <= CANDIDATE_LIMIT) return touched;
    // Names sharing a small fraction of the best one's weight cannot make the cut: drop them before sorting.
    let top = 0;
    for (const nameId of touched) top = Math.max(top, score(nameId));
    const scored = touched
      .map((nameId) => ({ nameId, score: score(nameId) }))
      .filter((entry) => entry.score >= top * 0.3);
    scored.sort((a, b) => b.score - a.score);
    return scored.slice(0, CANDIDATE_LIMIT).map((entry) => entry.nameId);
  }
}
