import { utcDay } from '../../platform/utc-calendar.js';

/**
 * The country list as data: every ISO 3166-1 alpha-2 code with its English short name, plus the sub-national
 * entries the tiers need (ISO 3166-2 codes such as CA-ON). Names follow CLDR's English names, with '&' and 'St.'
 * written out. This is the initial list: it seeds the geo_countries table, which is the truth after that (the
 * service's staff move entries between tiers through the back office).
 */
export type CountryStatus = 'blocked' | 'restricted' | 'allowed';

export interface CountryEntry {
  code: string;
  name: string;
  status: CountryStatus;
}

/**
 * The tier of a place the list does not name (neither its region nor its country): the spec's "Unlisted countries
 * are allowed". The geo check's statement applies it in SQL (statements/geo-check.ts).
 */
export const UNLISTED_PLACE_STATUS: CountryStatus = 'allowed';

/**
 * Why staff moved a country between tiers: a closed set of codes, because the reason goes to every tenant in the
 * geo.country_* events and no webhook carries text a member of staff typed. The label is the console's wording.
 */
export const COUNTRY_MOVE_REASONS = {
  regulatory_change: 'A change in the law or in a regulator’s rules',
  licence_granted: 'A local licence was granted',
  licence_withdrawn: 'A local licence was withdrawn or lapsed',
  sanctions_regime: 'A sanctions regime took effect or was lifted',
  court_order: 'A court order',
  operator_policy: 'The service’s own policy',
  correction: 'A correction of an earlier move',
} as const;
export type CountryMoveReason = keyof typeof COUNTRY_MOVE_REASONS;
export const COUNTRY_MOVE_REASON_CODES = Object.keys(COUNTRY_MOVE_REASONS) as CountryMoveReason[];

/** The date the initial list was compiled: the list's `version` until its first change. */
export const SEED_VERSION = '2026-11-22';

/** A changed list's `version`: the UTC date of the change (two changes on one day share it; the revision differs). */
export const versionOn = utcDay;

// ISO 3166-1 alpha-2, all 249 officially assigned codes, as "CODE Name" separated by ';' or a line break.
const ISO_3166_1 = `
  AD Andorra; AE United Arab Emirates; AF Afghanistan; AG Antigua and Barbuda; AI Anguilla; AL Albania
  AM Armenia; AO Angola; AQ Antarctica; AR Argentina; AS American Samoa; AT Austria; AU Australia
  AW Aruba; AX Åland Islands; AZ Azerbaijan; BA Bosnia and Herzegovina; BB Barbados; BD Bangladesh
  BE Belgium; BF Burkina Faso; BG Bulgaria; BH Bahrain; BI Burundi; BJ Benin; BL Saint Barthélemy
  BM Bermuda; BN Brunei; BO Bolivia; BQ Caribbean Netherlands; BR Brazil; BS Bahamas; BT Bhutan
  BV Bouvet Island; BW Botswana; BY Belarus; BZ Belize; CA Canada; CC Cocos (Keeling) Islands
  CD Congo (Kinshasa); CF Central African Republic; CG Congo (Brazzaville); CH Switzerland
  CI Côte d'Ivoire; CK Cook Islands; CL Chile; CM Cameroon; CN China; CO Colombia; CR Costa Rica; CU Cuba
  CV Cape Verde; CW Curaçao; CX Christmas Island; CY Cyprus; CZ Czechia; DE Germany; DJ Djibouti
  DK Denmark; DM Dominica; DO Dominican Republic; DZ Algeria; EC Ecuador; EE Estonia; EG Egypt
  EH Western Sahara; ER Eritrea; ES Spain; ET Ethiopia; FI Finland; FJ Fiji; FK Falkland Islands
  FM Micronesia; FO Faroe Islands; FR France; GA Gabon; GB United Kingdom; GD Grenada; GE Georgia
  GF French Guiana; GG Guernsey; GH Ghana; GI Gibraltar; GL Greenland; GM Gambia; GN Guinea; GP Guadeloupe
  GQ Equatorial Guinea; GR Greece; GS South Georgia and South Sandwich Islands; GT Guatemala; GU Guam
  GW Guinea-Bissau; GY Guyana; HK Hong Kong; HM Heard and McDonald Islands; HN Honduras; HR Croatia
  HT Haiti; HU Hungary; ID Indonesia; IE Ireland; IL Israel; IM Isle of Man; IN India
  IO British Indian Ocean Territory; IQ Iraq; IR Iran; IS Iceland; IT Italy; JE Jersey; JM Jamaica
  JO Jordan; JP Japan; KE Kenya; KG Kyrgyzstan; KH Cambodia; KI Kiribati; KM Comoros
  KN Saint Kitts and Nevis; KP North Korea; KR South Korea; KW Kuwait; KY Cayman Islands; KZ Kazakhstan
  LA Laos; LB Lebanon; LC Saint Lucia; LI Liechtenstein; LK Sri Lanka; LR Liberia; LS Lesotho
  LT Lithuania; LU Luxembourg; LV Latvia; LY Libya; MA Morocco; MC Monaco; MD Moldova; ME Montenegro
  MF Saint Martin; MG Madagascar; MH Marshall Islands; MK North Macedonia; ML Mali; MM Myanmar
  MN Mongolia; MO Macao; MP Northern Mariana Islands; MQ Martinique; MR Mauritania; MS Montserrat
  MT Malta; MU Mauritius; MV Maldives; MW Malawi; MX Mexico; MY Malaysia; MZ Mozambique; NA Namibia
  NC New Caledonia; NE Niger; NF Norfolk Island; NG Nigeria; NI Nicaragua; NL Netherlands; NO Norway
  NP Nepal; NR Nauru; NU Niue; NZ New Zealand; OM Oman; PA Panama; PE Peru; PF French Polynesia
  PG Papua New Guinea; PH Philippines; PK Pakistan; PL Poland; PM Saint Pierre and Miquelon
  PN Pitcairn Islands; PR Puerto Rico; PS Palestinian Territories; PT Portugal; PW Palau; PY Paraguay
  QA Qatar; RE Réunion; RO Romania; RS Serbia; RU Russia; RW Rwanda; SA Saudi Arabia; SB Solomon Islands
  SC Seychelles; SD Sudan; SE Sweden; SG Singapore; SH Saint Helena; SI Slovenia
  SJ Svalbard and Jan Mayen; SK Slovakia; SL Sierra Leone; SM San Marino; SN Senegal; SO Somalia
  SR Suriname; SS South Sudan; ST São Tomé and Príncipe; SV El Salvador; SX Sint Maarten; SY Syria
  SZ Eswatini; TC Turks and Caicos Islands; TD Chad; TF French Southern Territories; TG Togo; TH Thailand
  TJ Tajikistan; TK Tokelau; TL Timor-Leste; TM Turkmenistan; TN Tunisia; TO Tonga; TR Türkiye
  TT Trinidad and Tobago; TV Tuvalu; TW Taiwan; TZ Tanzania; UA Ukraine; UG Uganda
  UM United States Minor Outlying Islands; US United States; UY Uruguay; UZ Uzbekistan; VA Vatican City
  VC Saint Vincent and Grenadines; VE Venezuela; VG British Virgin Islands; VI U.S. Virgin Islands
  VN Vietnam; VU Vanuatu; WF Wallis and Futuna; WS Samoa; YE Yemen; YT Mayotte; ZA South Africa; ZM Zambia
  ZW Zimbabwe`;

/** Sub-national entries: tiers that differ from the rest of their country (looked up before the country). */
const SUBDIVISIONS: readonly (readonly [code: string, name: string])[] = [['CA-ON', 'Ontario, Canada']];

/** Initial tiers from the spec; every entry not named here starts allowed. */
const INITIAL_TIERS: Readonly<Record<Exclude<CountryStatus, 'allowed'>, readonly string[]>> = {
  blocked: ['US', 'RU', 'BY', 'KP', 'IR', 'MM'],
  restricted: ['GB', 'CA-ON', 'SE', 'NL', 'DE', 'FR', 'ES', 'IT', 'AU'],
};

const countries: [string, string][] = ISO_3166_1.split(/[;\n]/)
  .map((entry) => entry.trim())
  .filter(Boolean)
  .map((entry) => [entry.slice(0, 2), entry.slice(3)]);

const initialStatus = (code: string): CountryStatus =>
  INITIAL_TIERS.blocked.includes(code)
    ? 'blocked'
    : INITIAL_TIERS.restricted.includes(code)
      ? 'restricted'
      : 'allowed';

/** The initial list in code order: 249 countries and the sub-national entries. */
export const INITIAL_COUNTRY_LIST: readonly CountryEntry[] = [...countries, ...SUBDIVISIONS]
  .map(([code, name]) => ({ code, name, status: initialStatus(code) }))
  .sort((a, b) => a.code.localeCompare(b.code));
