import type { SanctionsEntityType, SanctionsListId, SanctionsListPublication } from './entity.js';
import { EntityBuilder, joinName } from './entity-builder.js';
import { resolveCountry } from './countries.js';
import { parseDateOfBirthText } from './dates.js';
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

const TYPES: Record<string, SanctionsEntityType> = {
  individual: 'person',
  entity: 'entity',
  vessel: 'vessel',
  aircraft: 'aircraft',
};

const ARRAYS = ['sdnEntry', 'aka', 'dateOfBirthItem', 'nationality', 'citizenship', 'program', 'address'];

/** CONSOLIDATED.XML is OFAC's non-SDN list; every other file of this schema (SDN.XML) is the SDN list. */
export function ofacXmlList(path: string): SanctionsListId {
  return /consolidated/i.test(path.split('/').pop() ?? '') ? 'ofac_consolidated' : 'ofac_sdn';
}

/** OFAC's `sdnList` XML (SDN.XML and CONSOLIDATED.XML share one XSD). */
export function parseOfacXml(file: SourceFile): SanctionsListPublication {
  const doc = parseXml(decodeText(file.bytes), ARRAYS).sdnList as XmlNode | undefined;
  if (!doc) throw new Error('not an OFAC sdnList document: no <sdnList> root');
  const publishDate = text(doc.publshInformation as XmlNode, 'Publish_Date');
  const publishedOn = isoDay(publishDate, 'mdy');
  if (!publishedOn) throw new Error(`OFAC Publish_Date missing or unreadable: "${publishDate}"`);
  const list = ofacXmlList(file.path);

  const entities = asArray(doc.sdnEntry).map((entry) => {
    const type = TYPES[text(entry, 'sdnType').toLowerCase()] ?? 'entity';
    const entity = new EntityBuilder(list, text(entry, 'uid'), type);
    entity.addName(joinName(text(entry, 'firstName'), text(entry, 'lastName')), 'primary');
    for (const aka of asArray((entry.akaList as XmlNode)?.aka)) {
      const quality = text(aka, 'category').toLowerCase() === 'weak' ? 'weak' : 'strong';
      entity.addName(joinName(text(aka, 'firstName'), text(aka, 'lastName')), quality);
    }
    for (const item of asArray((entry.dateOfBirthList as XmlNode)?.dateOfBirthItem)) {
      entity.addDateOfBirth(parseDateOfBirthText(text(item, 'dateOfBirth')));
    }
    const countries = (listNode: unknown, key: string) =>
      asArray((listNode as XmlNode)?.[key])
        .map((item) => text(item, 'country'))
        .filter(Boolean)
        .map(resolveCountry);
    entity.addNationalities(countries(entry.nationalityList, 'nationality'));
    entity.addCitizenships(countries(entry.citizenshipList, 'citizenship'));
    entity.addAddressCountries(countries(entry.addressList, 'address'));
    entity.addProgrammes(texts(entry.programList as XmlNode, 'program'));
    return entity.build();
  });

  return { list, format: 'ofac_xml', published_on: publishedOn, files: [file.path], entities };
}
