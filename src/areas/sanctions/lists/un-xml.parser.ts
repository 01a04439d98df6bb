import type { AliasQuality, SanctionsDateOfBirth, SanctionsListPublication } from './entity.js';
import { EntityBuilder, joinName } from './entity-builder.js';
import { resolveCountry } from './countries.js';
import { dateOfBirth, dateOfBirthRange, parsePartialDate } from './dates.js';
import {
  asArray,
  decodeText,
  isoDay,
  parseXml,
  text,
  texts,
  type SourceFile,
  type XmlNode,
} from './source.js';

const ARRAYS = [
  'INDIVIDUAL',
  'ENTITY',
  'INDIVIDUAL_ALIAS',
  'ENTITY_ALIAS',
  'INDIVIDUAL_DATE_OF_BIRTH',
  'NATIONALITY',
  'VALUE',
  'NAME_ORIGINAL_SCRIPT',
  'INDIVIDUAL_ADDRESS',
  'ENTITY_ADDRESS',
];

/** UN QUALITY: "Low" is the UN's weak alias; "Good", "a.k.a." and "f.k.a." are usable names. */
const aliasQuality = (quality: string): AliasQuality => (/^low/i.test(quality) ? 'weak' : 'strong');

/** TYPE_OF_DATE EXACT / APPROXIMATELY / BETWEEN with DATE, YEAR or FROM_YEAR..TO_YEAR. */
function unDateOfBirth(node: XmlNode): SanctionsDateOfBirth | undefined {
  const type = text(node, 'TYPE_OF_DATE').toUpperCase();
  const from = Number(text(node, 'FROM_YEAR'));
  const to = Number(text(node, 'TO_YEAR'));
  if (type === 'BETWEEN' || (from && to)) return dateOfBirthRange({ year: from }, { year: to });
  const date = parsePartialDate(text(node, 'DATE') || text(node, 'YEAR'));
  return date ? dateOfBirth(date, type === 'APPROXIMATELY') : undefined;
}

/** `<NATIONALITY><VALUE>…</VALUE>…</NATIONALITY>`, possibly repeated. */
function values(node: unknown): string[] {
  return asArray(node).flatMap((item) => texts(item, 'VALUE'));
}

function build(node: XmlNode, kind: 'INDIVIDUAL' | 'ENTITY'): EntityBuilder {
  // The reference number (e.g. "QDi.001") is the UN's public, permanent id that UK and EU listings cite.
  const id = text(node, 'REFERENCE_NUMBER') || text(node, 'DATAID');
  const entity = new EntityBuilder('un', id, kind === 'INDIVIDUAL' ? 'person' : 'entity');
  const name = joinName(
    text(node, 'FIRST_NAME'),
    text(node, 'SECOND_NAME'),
    text(node, 'THIRD_NAME'),
    text(node, 'FOURTH_NAME'),
  );
  entity.addName(name, 'primary');
  for (const original of texts(node, 'NAME_ORIGINAL_SCRIPT')) entity.addName(original, 'strong');
  for (const alias of asArray(node[`${kind}_ALIAS`])) {
    entity.addName(text(alias, 'ALIAS_NAME'), aliasQuality(text(alias, 'QUALITY')));
  }
  entity.addProgrammes([text(node, 'UN_LIST_TYPE')]);
  entity.addAddressCountries(
    asArray(node[`${kind}_ADDRESS`])
      .map((address) => text(address, 'COUNTRY'))
      .filter(Boolean)
      .map(resolveCountry),
  );
  return entity;
}

/** The UN Security Council consolidated.xml (CONSOLIDATED_LIST with INDIVIDUALS and ENTITIES). */
export function parseUnXml(file: SourceFile): SanctionsListPublication {
  const doc = parseXml(decodeText(file.bytes), ARRAYS).CONSOLIDATED_LIST as XmlNode | undefined;
  if (!doc) throw new Error('not a UN consolidated list: no <CONSOLIDATED_LIST> root');
  const generated = text(doc, '@dateGenerated');
  const publishedOn = isoDay(generated);
  if (!publishedOn) throw new Error(`UN dateGenerated missing or unreadable: "${generated}"`);

  const individuals = asArray((doc.INDIVIDUALS as XmlNode)?.INDIVIDUAL).map((node) => {
    const entity = build(node, 'INDIVIDUAL');
    for (const dob of asArray(node.INDIVIDUAL_DATE_OF_BIRTH)) entity.addDateOfBirth(unDateOfBirth(dob));
    entity.addNationalities(values(node.NATIONALITY).map(resolveCountry));
    return entity.build();
  });
  const entities = asArray((doc.ENTITIES as XmlNode)?.ENTITY).map((node) => build(node, 'ENTITY').build());

  return {
    list: 'un',
    format: 'un_xml',
    published_on: publishedOn,
    files: [file.path],
    entities: [...individuals, ...entities],
  };
}
