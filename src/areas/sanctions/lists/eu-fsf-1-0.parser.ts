import type { SanctionsListPublication } from './entity.js';
import { EntityBuilder, joinName } from './entity-builder.js';
import { resolveCountry } from './countries.js';
import { parseDateOfBirthText } from './dates.js';
import { asArray, decodeText, isoDay, parseXml, text, type SourceFile, type XmlNode } from './source.js';

const ARRAYS = ['ENTITY', 'NAME', 'BIRTH', 'CITIZEN', 'ADDRESS'];

/**
 * The EU Financial Sanctions Files in the old 1.0 layout (`<WHOLE Date="DD/MM/YYYY">`, ENTITY Type P|E with NAME,
 * BIRTH, CITIZEN). This layout has no alias quality: every name is a usable one; the first is the primary name.
 */
export function parseEuFsf10(file: SourceFile): SanctionsListPublication {
  const doc = parseXml(decodeText(file.bytes), ARRAYS).WHOLE as XmlNode | undefined;
  if (!doc) throw new Error('not an EU FSF 1.0 file: no <WHOLE> root');
  const stated = text(doc, '@Date');
  const publishedOn = isoDay(stated);
  if (!publishedOn) throw new Error(`EU FSF 1.0 WHOLE Date missing or unreadable: "${stated}"`);

  const entities = asArray(doc.ENTITY).map((node) => {
    const entity = new EntityBuilder(
      'eu',
      text(node, '@Id'),
      text(node, '@Type') === 'P' ? 'person' : 'entity',
    );
    for (const name of asArray(node.NAME)) {
      const whole =
        text(name, 'WHOLENAME') ||
        joinName(text(name, 'FIRSTNAME'), text(name, 'MIDDLENAME'), text(name, 'LASTNAME'));
      entity.addName(whole, 'primary');
    }
    // BIRTH DATE: "1960-02-21", "1960", "1960 (approximative)", "1958 - 1962 (approximative)".
    for (const birth of asArray(node.BIRTH)) entity.addDateOfBirth(parseDateOfBirthText(text(birth, 'DATE')));
    const citizen = asArray(node.CITIZEN).map((c) => text(c, 'COUNTRY'));
    entity.addCitizenships(citizen.filter((code) => code && code !== '00').map(resolveCountry));
    const addresses = asArray(node.ADDRESS).map((a) => text(a, 'COUNTRY'));
    entity.addAddressCountries(addresses.filter((code) => code && code !== '00').map(resolveCountry));
    entity.addProgrammes([text(node, '@programme')]);
    return entity.build();
  });

  return { list: 'eu', format: 'eu_fsf_1_0', published_on: publishedOn, files: [file.path], entities };
}
