import { skeletonKey } from './phonetic.js';
import { HONORIFICS } from './stop-words.js';
import {
  MIN_TOKEN_SIMILARITY,
  spellingSimilarity,
  transliterationOnly,
  type TokenInfo,
} from './token-similarity.js';

/** A query token or a pair of adjacent query tokens linked to a name token or a pair of adjacent name tokens. */
interface Link {
  query: number[];
  name: number[];
  similarity: number;
}

/** Score deductions for tokens left without a partner; a subject's extra token weighs more than a list's extra one. */
export const UNMATCHED_QUERY_PENALTY = 0.15;
export const UNMATCHED_NAME_PENALTY = 0.1;
/** A multi-token subject that meets a name on one token only is a coincidence, not a match. */
export const SINGLE_TOKEN_CAP = 0.75;

// Initials, two-letter fragments and titles ("Haji" inside a name, where it is not dropped) carry half the
// identity of a full token.
const weight = (token: TokenInfo): number => (token.text.length <= 2 || HONORIFICS.has(token.text) ? 0.5 : 1);

function joinedSimilarity(joined: string, token: TokenInfo): number {
  if (Math.abs(joined.length - token.text.length) > 3) return 0;
  let best = spellingSimilarity(joined, token.text);
  // Short skeletons ("hl") are too common to vouch for a join on their own.
  if (token.abjad && token.skeleton.length >= 3 && skeletonKey(joined) === token.skeleton)
    best = Math.max(best, 0.9);
  return best >= 0.88 ? best : 0;
}

/** Links where adjacent tokens on one side were written as one token on the other ("Abdul Rahman", "Abdulrahman"). */
function joinedLinks(query: TokenInfo[], name: TokenInfo[]): Link[] {
  const links: Link[] = [];
  for (let i = 0; i + 1 < query.length; i++) {
    const joined = (query[i]?.text ?? '') + (query[i + 1]?.text ?? '');
    name.forEach((token, j) => {
      const similarity = joinedSimilarity(joined, token);
      if (similarity > 0) links.push({ query: [i, i + 1], name: [j], similarity });
    });
  }
  for (let j = 0; j + 1 < name.length; j++) {
    const joined = (name[j]?.text ?? '') + (name[j + 1]?.text ?? '');
    query.forEach((token, i) => {
      const similarity = joinedSimilarity(joined, token);
      if (similarity > 0) links.push({ query: [i], name: [j, j + 1], similarity });
    });
  }
  return links;
}

/**
 * Order-independent similarity (0–1) of a subject's name and one list name. Tokens are paired greedily, best pair
 * first (so "SURNAME Given" meets "Given SURNAME"); the score is the mean similarity of the paired tokens, less a
 * deduction per token left unpaired (a missing middle name costs 0.1, an extra subject token 0.15).
 */
export function scoreNameTokens(
  query: TokenInfo[],
  name: TokenInfo[],
  pairSimilarity: (queryIndex: number, nameIndex: number) => number,
): number {
  if (query.length === 0 || name.length === 0) return 0;
  const links: Link[] = [];
  for (let i = 0; i < query.length; i++) {
    for (let j = 0; j < name.length; j++) {
      const similarity = pairSimilarity(i, j);
      if (similarity >= MIN_TOKEN_SIMILARITY) links.push({ query: [i], name: [j], similarity });
    }
  }
  if (query.length > 1 || name.length > 1) links.push(...joinedLinks(query, name));
  // Best first; on a tie the link covering more tokens wins, so a join beats a partial single-token pairing.
  links.sort(
    (a, b) => b.similarity - a.similarity || b.query.length + b.name.length - a.query.length - a.name.length,
  );
  const queryUsed = new Uint8Array(query.length);
  const nameUsed = new Uint8Array(name.length);
  let pairedMass = 0;
  let pairedScore = 0;
  // Spelling differences of the paired tokens: the largest is in the mean only; each further one costs again.
  let differences = 0;
  let largestDifference = 0;
  for (const link of links) {
    if (link.query.some((i) => queryUsed[i] === 1) || link.name.some((j) => nameUsed[j] === 1)) continue;
    let mass = 0;
    for (const i of link.query) {
      queryUsed[i] = 1;
      mass += weight(query[i] as TokenInfo);
    }
    for (const j of link.name) {
      nameUsed[j] = 1;
      mass += weight(name[j] as TokenInfo);
    }
    pairedMass += mass;
    pairedScore += mass * link.similarity;
    const difference = (1 - link.similarity) * Math.min(1, mass / (link.query.length + link.name.length));
    const [i, j] = [link.query[0] as number, link.name[0] as number];
    const single = link.query.length === 1 && link.name.length === 1;
    if (difference > 0 && !(single && transliterationOnly(query[i] as TokenInfo, name[j] as TokenInfo))) {
      differences += difference;
      largestDifference = Math.max(largestDifference, difference);
    }
  }
  if (pairedMass === 0) return 0;
  // Two independent slips in one name are rarer than one: "Sarah Green" is not "Egreen Salah".
  let score = pairedScore / pairedMass - (differences - largestDifference);
  query.forEach((token, i) => {
    if (queryUsed[i] === 0) score -= UNMATCHED_QUERY_PENALTY * weight(token);
  });
  name.forEach((token, j) => {
    if (nameUsed[j] === 0) score -= UNMATCHED_NAME_PENALTY * weight(token);
  });
  // Titles do not count: "Bando Hadji" against the list's "BANDO, Haji" (title dropped) meets on the name.
  const named = query.filter((token) => !HONORIFICS.has(token.text)).length;
  const namedPaired = query.filter((token, i) => queryUsed[i] === 1 && !HONORIFICS.has(token.text)).length;
  if (named > 1 && namedPaired <= 1) score = Math.min(score, SINGLE_TOKEN_CAP);
  return Math.max(0, Math.min(1, score));
}
