import type {
  AliasQuality,
  SanctionsEntity,
  SanctionsEntityType,
  SanctionsListPublication,
} from '../lists/entity.js';
import { normaliseName } from './normalise.js';
import { PackedPostings, Vocabulary } from './vocabulary.js';

export const ENTITY_TYPES: readonly SanctionsEntityType[] = ['person', 'entity', 'vessel', 'aircraft'];
export const ALIAS_QUALITIES: readonly AliasQuality[] = ['primary', 'strong', 'weak'];

/** The index's tables. Names are rows of typed arrays; tokens are interned once in the vocabulary. */
export interface IndexData {
  entities: SanctionsEntity[];
  /** Per name: its entity, entity type, alias quality (index into ALIAS_QUALITIES), text and script. */
  nameEntity: Uint32Array;
  nameType: Uint8Array;
  nameQuality: Uint8Array;
  nameText: string[];
  nameNonLatin: Uint8Array;
  /** Per name: its token ids, in order. */
  nameTokens: PackedPostings;
  vocabulary: Vocabulary;
  /** Per token id: the names holding the token, or holding it as two adjacent tokens written together. */
  postings: PackedPostings;
  /** Per token id: inverse document frequency, so rare tokens weigh more when ranking candidates. */
  idf: Float32Array;
  list_versions: Record<string, string>;
}

const QUALITY_RANK: Record<AliasQuality, number> = { primary: 0, strong: 1, weak: 2 };

export function buildIndexData(publications: SanctionsListPublication[]): IndexData {
  const vocabulary = new Vocabulary();
  const entities: SanctionsEntity[] = [];
  const nameEntity: number[] = [];
  const nameType: number[] = [];
  const nameQuality: number[] = [];
  const nameText: string[] = [];
  const nameNonLatin: number[] = [];
  const nameTokens: number[][] = [];
  const postingLists: number[][] = [];
  const post = (tokenId: number, nameId: number) => {
    const list = (postingLists[tokenId] ??= []);
    if (list[list.length - 1] !== nameId) list.push(nameId);
  };

  for (const publication of publications) {
    for (const entity of publication.entities) {
      const entityId = entities.push(entity) - 1;
      // The same normalised name is indexed once per entity, under its best quality.
      const names = [...entity.names].sort((a, b) => QUALITY_RANK[a.quality] - QUALITY_RANK[b.quality]);
      const seen = new Set<string>();
      for (const name of names) {
        const { tokens, abjad } = normaliseName(name.name, entity.type);
        const key = tokens.map((token, i) => Vocabulary.key(token, abjad[i] ?? false)).join(' ');
        if (tokens.length === 0 || seen.has(key)) continue;
        seen.add(key);
        const nameId = nameText.length;
        const ids = tokens.map((token, i) => vocabulary.intern(token, abjad[i] ?? false));
        nameEntity.push(entityId);
        nameType.push(ENTITY_TYPES.indexOf(entity.type));
        nameQuality.push(ALIAS_QUALITIES.indexOf(name.quality));
        nameText.push(name.name);
        nameNonLatin.push(name.non_latin ? 1 : 0);
        nameTokens.push(ids);
        for (const id of ids) post(id, nameId);
        for (let i = 0; i + 1 < tokens.length; i++) {
          post(
            vocabulary.intern(`${tokens[i]}${tokens[i + 1]}`, (abjad[i] ?? false) || (abjad[i + 1] ?? false)),
            nameId,
          );
        }
      }
    }
  }
  vocabulary.freeze();
  const postings = PackedPostings.pack(
    Array.from({ length: vocabulary.tokens.length }, (_, i) => postingLists[i] ?? []),
  );
  const idf = new Float32Array(vocabulary.tokens.length);
  for (let i = 0; i < idf.length; i++) idf[i] = Math.log(1 + nameText.length / Math.max(1, postings.size(i)));
  const list_versions: Record<string, string> = {};
  for (const publication of publications) list_versions[publication.list] = publication.published_on;
  return {
    entities,
    nameEntity: Uint32Array.from(nameEntity),
    nameType: Uint8Array.from(nameType),
    nameQuality: Uint8Array.from(nameQuality),
    nameText,
    nameNonLatin: Uint8Array.from(nameNonLatin),
    nameTokens: PackedPostings.pack(nameTokens),
    vocabulary,
    postings,
    idf,
    list_versions,
  };
}
