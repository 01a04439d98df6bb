import type { AliasQuality, SanctionsEntityType, SanctionsListPublication } from './entity.js';
import { EntityBuilder, joinName } from './entity-builder.js';
import { resolveCountry } from './countries.js';
import { parseDateOfBirthText } from './dates.js';
import { asArray, decodeText, isoDay, parseXml, text, type SourceFile, type XmlNode } from './source.js';

const TYPES: Record<string, SanctionsEntityType> = { individual: 'person', entity: 'entity', ship: 'vessel' };

const ARRAYS = [
  'Designation',
  'Name',
  'NonLatinName',
  'Individual',
  'DOB',
  'Nationality',
  'Address',
  'RegimeName',
];

/** NameType "Primary Name" / "Primary Name Variation" / "Alias"; AliasStrength "Low quality" marks a weak alias. */
function quality(name: XmlNode): AliasQuality {
  const type = text(name, 'NameType').toLowerCase();
  if (type === 'primary name') return 'primary';
  if (type === 'primary name variation') return 'strong';
  return /^low/i.test(text(name, 'AliasStrength')) ? 'weak' : 'strong';
}

function designation(node: XmlNode): EntityBuilder {
  const type = TYPES[text(node, 'IndividualEntityShip').toLowerCase()] ?? 'entity';
  const entity = new EntityBuilder('uk', text(node, 'UniqueID'), type);
  for (const name of asArray((node.Names as XmlNode)?.Name)) {
    // As in ConList, Name6 is the surname (or an entity's whole name) and Name1-5 the given names.
    const parts = [1, 2, 3, 4, 5, 6].map((i) => text(name, `Name${i}`));
    entity.addName(joinName(...parts), quality(name));
  }
  for (const nonLatin of asArray((node.NonLatinNames as XmlNode)?.NonLatinName)) {
    entity.addName(text(nonLatin, 'NameNonLatinScript'), 'strong');
  }
  entity.addProgrammes(asArray(node.RegimeName).map((regime) => text(regime, '#text')));
  for (const individual of asArray((node.IndividualDetails as XmlNode)?.Individual)) {
    for (const dob of asArray((individual.DOBs as XmlNode)?.DOB)) {
      entity.addDateOfBirth(parseDateOfBirthText(text(dob, '#text')));
    }
    const nationalities = asArray((individual.Nationalities as XmlNode)?.Nationality);
    entity.addNationalities(nationalities.map((n) => resolveCountry(text(n, '#text'))).filter(Boolean));
  }
  const addresses = asArray((node.Addresses as XmlNode)?.Address);
  entity.addAddressCountries(
    addresses
      .map((a) => text(a, 'AddressCountry'))
      .filter(Boolean)
      .map(resolveCountry),
  );
  return entity;
}

/**
 * The FCDO "UK Sanctions List" XML (UK_Sanctions_List.xml, root `Designations`), the only official UK list since
 * OFSI retired ConList on 2026-01-28. No real file is available here: built from its published layout.
 */
export function parseUkFcdoXml(file: SourceFile): SanctionsListPublication {
  const doc = parseXml(decodeText(file.bytes), ARRAYS).Designations as XmlNode | undefined;
  if (!doc) throw new Error('not a UK Sanctions List: no <Designations> root');
  const generated = text(doc, 'DateGenerated');
  const publishedOn = isoDay(generated);
  if (!publishedOn) throw new Error(`UK Sanctions List DateGenerated missing or unreadable: "${generated}"`);
  const entities = asArray(doc.Designation)
    .map(designation)
    .filter((entity) => entity.hasNames)
    .map((entity) => entity.build());
  return { list: 'uk', format: 'uk_fcdo_xml', published_on: publishedOn, files: [file.path], entities };
}
