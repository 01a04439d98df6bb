import { createRequire } from 'node:module';
import countries from 'i18n-iso-countries';

// The English names ship as JSON; a require keeps the ESM build free of JSON import attributes.
countries.registerLocale(createRequire(import.meta.url)('i18n-iso-countries/langs/en.json'));

/**
 * Spellings the lists use that the ISO names do not cover: old or short state names and the demonyms
 * ("Tunisian", "Saudi Arabian") the pre-2022 UK list and OFAC remarks use for nationality. Keys are lower case.
 */
const LIST_SPELLINGS: Record<string, string> = {
  syria: 'SY',
  'cabo verde': 'CV',
  burma: 'MM',
  moldova: 'MD',
  laos: 'LA',
  'viet nam': 'VN',
  macedonia: 'MK',
  'north macedonia': 'MK',
  'north macedonia, the republic of': 'MK',
  'cote d ivoire': 'CI',
  "cote d'ivoire": 'CI',
  'libyan arab jamahiriya': 'LY',
  dprk: 'KP',
  "democratic people's republic of korea": 'KP',
  'korea, north': 'KP',
  'korea, south': 'KR',
  'congo (democratic republic)': 'CD',
  'congo, democratic republic of the': 'CD',
  'congo, republic of the': 'CG',
  'guinea bissau': 'GW',
  'united states of america': 'US',
  usa: 'US',
  uk: 'GB',
  'united kingdom of great britain and northern ireland': 'GB',
  'great britain': 'GB',
  'occupied palestinian territories': 'PS',
  palestinian: 'PS',
  afghan: 'AF',
  afgan: 'AF',
  albanian: 'AL',
  algerian: 'DZ',
  american: 'US',
  angolan: 'AO',
  azerbaijani: 'AZ',
  bahraini: 'BH',
  bangladeshi: 'BD',
  belarusian: 'BY',
  belgian: 'BE',
  bosnian: 'BA',
  british: 'GB',
  burmese: 'MM',
  burundian: 'BI',
  cambodian: 'KH',
  chadian: 'TD',
  chinese: 'CN',
  colombian: 'CO',
  congolese: 'CD',
  cuban: 'CU',
  cypriot: 'CY',
  danish: 'DK',
  dutch: 'NL',
  egyptian: 'EG',
  emirati: 'AE',
  eritrean: 'ER',
  ethiopian: 'ET',
  filipino: 'PH',
  french: 'FR',
  georgian: 'GE',
  german: 'DE',
  guinean: 'GN',
  indian: 'IN',
  indonesian: 'ID',
  iranian: 'IR',
  iraqi: 'IQ',
  irish: 'IE',
  israeli: 'IL',
  italian: 'IT',
  ivorian: 'CI',
  jordanian: 'JO',
  kazakh: 'KZ',
  kenyan: 'KE',
  kuwaiti: 'KW',
  kyrgyz: 'KG',
  lebanese: 'LB',
  liberian: 'LR',
  libyan: 'LY',
  malaysian: 'MY',
  malian: 'ML',
  mauritanian: 'MR',
  moroccan: 'MA',
  nicaraguan: 'NI',
  nigerian: 'NG',
  nigerien: 'NE',
  'north korean': 'KP',
  omani: 'OM',
  pakistani: 'PK',
  qatari: 'QA',
  russian: 'RU',
  rwandan: 'RW',
  'saudi arabian': 'SA',
  saudi: 'SA',
  senegalese: 'SN',
  serbian: 'RS',
  somali: 'SO',
  'south sudanese': 'SS',
  spanish: 'ES',
  sudanese: 'SD',
  swedish: 'SE',
  swiss: 'CH',
  syrian: 'SY',
  tajik: 'TJ',
  tanzanian: 'TZ',
  tunisian: 'TN',
  turkish: 'TR',
  ugandan: 'UG',
  ukrainian: 'UA',
  uzbek: 'UZ',
  venezuelan: 'VE',
  yemeni: 'YE',
  zimbabwean: 'ZW',
};

/** Qualifiers the lists attach to a country that do not change which country it is. */
const NOISE = /\b(?:citizenship|citizen|national|nationality)\b|\(.*?\)|[.]+$/gi;

function lookup(text: string): string | undefined {
  const key = text.toLowerCase().replace(/\s+/g, ' ').trim();
  if (!key) return undefined;
  const listed = LIST_SPELLINGS[key];
  if (listed) return listed;
  const iso = countries.getAlpha2Code(key, 'en');
  if (iso) return iso;
  // "Korea, North" / "Congo, Republic of the": the lists print some names inverted.
  const comma = /^(.+?),\s*(.+)$/.exec(key);
  if (comma) return countries.getAlpha2Code(`${comma[2]} ${comma[1]}`, 'en');
  return undefined;
}

/**
 * ISO 3166-1 alpha-2 for a country as a list prints it (a name, a demonym, an alpha-3 or alpha-2 code); the trimmed
 * text itself when it does not resolve, so nothing the list says is lost; "" when the list says it does not know.
 */
export function resolveCountry(raw: string): string {
  const text = raw.trim();
  // i18n-iso-countries scans every country per look-up; lists repeat a few hundred spellings thousands of times.
  let code = resolved.get(text);
  if (code === undefined) {
    code = resolveUncached(text);
    resolved.set(text, code);
  }
  return code;
}

const resolved = new Map<string, string>();

function resolveUncached(text: string): string {
  // "na" (UN), "UNKNOWN" (EU): the list states no country.
  if (/^(?:n\/?a|unknown|none)$/i.test(text)) return '';
  if (/^[A-Z]{3}$/.test(text)) return countries.alpha3ToAlpha2(text) ?? text;
  if (/^[A-Z]{2}$/.test(text)) return text;
  return lookup(text) ?? lookup(text.replace(NOISE, ' ')) ?? text;
}

/** Splits the numbered enumerations the UK list uses ("(1) Syria. (2) Turkey") into their items. */
export function splitNumbered(raw: string): string[] {
  const items = raw.split(/\(\d+\)/).map((item) =>
    item
      .trim()
      .replace(/[.;,]+$/, '')
      .trim(),
  );
  return items.filter((item) => item.length > 0);
}

/** Resolves every country in a (possibly numbered) list field; empty and "-0-" fields give none. */
export function resolveCountries(raw: string | undefined): string[] {
  if (!raw || raw.trim() === '-0-') return [];
  return splitNumbered(raw).map(resolveCountry);
}
