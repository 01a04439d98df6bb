import { tokenInfo, type TokenInfo } from './token-similarity.js';

/** Padded trigrams of a token ("ali" → "^al", "ali", "li$"): the n-gram key for typo-tolerant token look-up. */
export function trigrams(text: string): string[] {
  const padded = `^${text}$`;
  const grams: string[] = [];
  for (let i = 0; i + 3 <= padded.length; i++) grams.push(padded.slice(i, i + 3));
  return grams;
}

/** Posting lists packed into one typed array: ids of `key` are `values[offsets[key] .. offsets[key + 1])`. */
export class PackedPostings {
  private constructor(
    private readonly offsets: Uint32Array,
    private readonly values: Uint32Array,
  ) {}

  static pack(lists: ReadonlyArray<ReadonlyArray<number>>): PackedPostings {
    const offsets = new Uint32Array(lists.length + 1);
    lists.forEach((list, i) => (offsets[i + 1] = (offsets[i] ?? 0) + list.length));
    const values = new Uint32Array(offsets[lists.length] ?? 0);
    lists.forEach((list, i) => values.set(list, offsets[i]));
    return new PackedPostings(offsets, values);
  }

  /** Calls `visit` for each id under `key`, without allocating a view. */
  forEach(key: number, visit: (id: number) => void): void {
    const end = this.offsets[key + 1] ?? 0;
    for (let i = this.offsets[key] ?? 0; i < end; i++) visit(this.values[i] as number);
  }

  get(key: number): Uint32Array {
    return this.values.subarray(this.offsets[key] ?? 0, this.offsets[key + 1] ?? 0);
  }

  size(key: number): number {
    return (this.offsets[key + 1] ?? 0) - (this.offsets[key] ?? 0);
  }
}

/**
 * Every distinct token of the indexed names, interned once, with its look-up keys: exact text, consonant
 * skeleton, Double Metaphone code and trigrams. Keys map to token ids; token ids map to name ids (postings).
 */
export class Vocabulary {
  readonly tokens: TokenInfo[] = [];
  private readonly ids = new Map<string, number>();
  readonly bySkeleton = new Map<string, number[]>();
  readonly byMetaphone = new Map<string, number[]>();
  private readonly byTrigramLists = new Map<string, number[]>();
  // Trigram → token length → ids, packed once interning is over: the ids of (trigram g, length l) are
  // `trigramIds[trigramOffsets[g * LENGTHS + l] .. trigramOffsets[g * LENGTHS + l + 1])`. One buffer, not a typed
  // array per (trigram, length): there are over a hundred thousand of those.
  private readonly trigramNumbers = new Map<string, number>();
  private trigramOffsets = new Uint32Array(1);
  private trigramIds = new Uint32Array(0);

  static key(text: string, abjad: boolean): string {
    return abjad ? `#${text}` : text;
  }

  idOf(text: string, abjad: boolean): number | undefined {
    return this.ids.get(Vocabulary.key(text, abjad));
  }

  intern(text: string, abjad: boolean): number {
    const key = Vocabulary.key(text, abjad);
    const known = this.ids.get(key);
    if (known !== undefined) return known;
    const id = this.tokens.length;
    const info = tokenInfo(text, abjad);
    this.tokens.push(info);
    this.ids.set(key, id);
    const add = (map: Map<string, number[]>, k: string) => {
      const list = map.get(k);
      if (list === undefined) map.set(k, [id]);
      else list.push(id);
    };
    if (info.skeleton !== '') add(this.bySkeleton, info.skeleton);
    if (info.metaphone !== '') add(this.byMetaphone, info.metaphone);
    for (const gram of new Set(trigrams(text)))
      add(this.byTrigramLists, `${gram}${lengthBucket(text.length)}`);
    return id;
  }

  /** Packs the trigram lists once interning is over; the vocabulary is read-only afterwards. */
  freeze(): void {
    const lists: number[][] = [];
    for (const [key, list] of this.byTrigramLists) {
      const gram = key.slice(0, 3);
      let number = this.trigramNumbers.get(gram);
      if (number === undefined) this.trigramNumbers.set(gram, (number = this.trigramNumbers.size));
      lists[number * LENGTHS + Number(key.slice(3))] = list;
    }
    const offsets = new Uint32Array(this.trigramNumbers.size * LENGTHS + 1);
    for (let slot = 0; slot + 1 < offsets.length; slot++)
      offsets[slot + 1] = (offsets[slot] ?? 0) + (lists[slot]?.length ?? 0);
    const ids = new Uint32Array(offsets[offsets.length - 1] ?? 0);
    lists.forEach((list, slot) => ids.set(list, offsets[slot]));
    this.trigramOffsets = offsets;
    this.trigramIds = ids;
    this.byTrigramLists.clear();
  }

  /** Calls `visit` for each token id holding `gram` whose length is within `from`..`to`. */
  forEachWithTrigram(gram: string, from: number, to: number, visit: (id: number) => void): void {
    const number = this.trigramNumbers.get(gram);
    if (number === undefined) return;
    const first = number * LENGTHS + lengthBucket(from);
    const last = number * LENGTHS + lengthBucket(to);
    const end = this.trigramOffsets[last + 1] ?? 0;
    for (let i = this.trigramOffsets[first] ?? 0; i < end; i++) visit(this.trigramIds[i] as number);
  }
}

/** Token lengths told apart by the trigram look-up; longer tokens share the last bucket. */
const LENGTHS = 40;
const lengthBucket = (length: number): number => Math.min(Math.max(length, 0), LENGTHS - 1);
