import type { SanctionsDateOfBirth, SanctionsListPublication } from './entity.js';
import { EntityBuilder, joinName } from './entity-builder.js';
import { resolveCountry } from './countries.js';
import { dateOfBirth, dateOfBirthRange, parsePartialDate } from './dates.js';
import { asArray, decodeText, isoDay, parseXml, text, type SourceFile, type XmlNode } from './source.js';

const ARRAYS = ['sanctionEntity', 'nameAlias', 'birthdate', 'citizenship', 'regulation', 'address'];

/** The EU marks an unknown country with code "00" and description "UNKNOWN". */
function country(node: XmlNode): string {
  const code = text(node, '@countryIso2Code');
  if (code && code !== '00') return code === 'CS' ? 'RS' : code;
  const description = text(node, '@countryDescription');
  return description && description !== 'UNKNOWN' ? resolveCountry(description) : '';
}

/** birthdate="1960-02-21", or year (with month/day) only, or yearRangeFrom..yearRangeTo; circa="true" widens it. */
function birth(node: XmlNode): SanctionsDateOfBirth | undefined {
  const circa = text(node, '@circa') === 'true';
  const from = Number(text(node, '@yearRangeFrom'));
  const to = Number(text(node, '@yearRangeTo'));
  if (from && to) return dateOfBirthRange({ year: from }, { year: to }, circa);
  const full = parsePartialDate(text(node, '@birthdate'));
  if (full) return dateOfBirth(full, circa);
  const year = Number(text(node, '@year'));
  const month = Number(text(node, '@monthOfYear')) || undefined;
  const day = Number(text(node, '@dayOfMonth')) || undefined;
  return year
    ? dateOfBirth({ year, ...(month ? { month } : {}), ...(month && day ? { day } : {}) }, circa)
    : undefined;
}

/**
 * The EU Financial Sanctions Files 1.1 XML (namespace http://eu.europa.ec/fpi/fsd/export): export generationDate,
 * sanctionEntity logicalId with subjectType, nameAlias (strong="false" is a weak alias), birthdate, citizenship and
 * regulation programme.
 */
export function parseEuFsf11(file: SourceFile): SanctionsListPublication {
  const doc = parseXml(decodeText(file.bytes), ARRAYS).export as XmlNode | undefined;
  if (!doc) throw new Error('not an EU FSF 1.1 file: no <export> root');
  const generated = text(doc, '@generationDate');
  const publishedOn = isoDay(generated);
  if (!publishedOn) throw new Error(`EU FSF 1.1 generationDate missing or unreadable: "${generated}"`);

  const entities = asArray(doc.sanctionEntity).map((node) => {
    const subject = text(node.subjectType as XmlNode, '@code');
    const entity = new EntityBuilder(
      'eu',
      text(node, '@logicalId'),
      subject === 'person' ? 'person' : 'entity',
    );
    for (const alias of asArray(node.nameAlias)) {
      const name =
        text(alias, '@wholeName') ||
        joinName(text(alias, '@firstName'), text(alias, '@middleName'), text(alias, '@lastName'));
      entity.addName(name, text(alias, '@strong') === 'false' ? 'weak' : 'strong');
    }
    for (const birthNode of asArray(node.birthdate)) entity.addDateOfBirth(birth(birthNode));
    entity.addCitizenships(asArray(node.citizenship).map(country).filter(Boolean));
    entity.addAddressCountries(asArray(node.address).map(country).filter(Boolean));
    entity.addProgrammes(asArray(node.regulation).map((regulation) => text(regulation, '@programme')));
    return entity.build();
  });

  return { list: 'eu', format: 'eu_fsf_1_1', published_on: publishedOn, files: [file.path], entities };
}
