import { allCountries } from 'country-region-data';
import { iso31662 } from 'iso-3166';

/**
 * English names that neither package carries, as DB-IP Lite spells them (GeoNames English names), for the
 * regulated European markets and Australia. Every code must exist in ISO 3166-2 (a test holds this).
 */
const ENGLISH_NAMES: Readonly<Record<string, readonly string[]>> = {
  'AT-2': ['Carinthia'],
  'AT-3': ['Lower Austria'],
  'AT-4': ['Upper Austria'],
  'AT-5': ['State of Salzburg'],
  'AT-6': ['Styria'],
  'AT-7': ['Tyrol'],
  'AT-9': ['Vienna', 'State of Vienna'],
  'AU-ACT': ['ACT'],
  'BE-BRU': ['Brussels Capital'],
  'BE-VLG': ['Flanders'],
  'BE-WAL': ['Wallonia'],
  'CH-BS': ['Basel-City'],
  'CH-GE': ['Geneva'],
  'CH-GR': ['Grisons'],
  'CH-LU': ['Lucerne'],
  'CH-SG': ['Saint Gall'],
  'DE-BE': ['State of Berlin'],
  'DE-BY': ['Bavaria'],
  'DE-HB': ['City state Bremen', 'Free Hanseatic City of Bremen'],
  'DE-HE': ['Hesse'],
  'DE-HH': ['Free and Hanseatic City of Hamburg'],
  'DE-NI': ['Lower Saxony'],
  'DE-NW': ['North Rhine-Westphalia'],
  'DE-SN': ['Saxony'],
  'DE-ST': ['Saxony-Anhalt'],
  'DE-TH': ['Thuringia'],
  'DK-81': ['North Denmark'],
  'DK-82': ['Central Jutland'],
  'DK-83': ['South Denmark'],
  'DK-84': ['Capital Region'],
  'DK-85': ['Zealand'],
  'ES-AN': ['Andalusia'],
  'ES-AS': ['Asturias'],
  'ES-CL': ['Castille and Leon'],
  'ES-CM': ['Castille-La Mancha'],
  'ES-CN': ['Canary Islands'],
  'ES-CT': ['Catalonia'],
  'ES-IB': ['Balearic Islands'],
  'ES-MC': ['Murcia'],
  'ES-MD': ['Madrid'],
  'ES-NC': ['Navarre'],
  'ES-PV': ['Basque Country'],
  'ES-VC': ['Valencia'],
  'FR-20R': ['Corsica'],
  'FR-ARA': ['Rhone-Alpes'],
  'FR-BFC': ['Bourgogne'],
  'FR-BRE': ['Brittany'],
  'FR-NAQ': ['New Aquitaine'],
  'FR-NOR': ['Normandy'],
  'FR-PAC': ['Provence'],
  'IT-21': ['Piedmont'],
  'IT-23': ['Aosta Valley'],
  'IT-25': ['Lombardy'],
  'IT-52': ['Tuscany'],
  'IT-57': ['The Marches'],
  'IT-75': ['Apulia'],
  'IT-77': ['Basilicate'],
  'IT-82': ['Sicily'],
  'IT-88': ['Sardinia'],
  'NL-FR': ['Friesland'],
  'NL-NB': ['North Brabant'],
  'NL-NH': ['North Holland'],
  'NL-ZH': ['South Holland'],
  'PT-11': ['Lisbon'],
  'PT-15': ['District of Setubal'],
  'PT-20': ['Azores'],
};

/** Words that name the kind of subdivision, not the subdivision: "Amur Oblast" is "Amurskaya oblast'". */
const DESIGNATORS =
  /\b(state of|city of|republic of|autonomous okrug|oblast|kray|krai|kraj|republic|province|provincia|region|county|lan|state|city|municipality|governorate|district|department|prefecture|voivodeship|the)\b/g;

/** Case, accents, apostrophes and punctuation never tell two subdivisions apart. */
const plain = (name: string) =>
  name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’`ʹ]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
const bare = (name: string) => plain(name).replace(DESIGNATORS, ' ').replace(/\s+/g, ' ').trim();

let index: Map<string, string | null> | undefined;

/**
 * Country and name key → ISO 3166-2 code, or null when one key names two subdivisions (never guess). The ISO
 * list comes first; other names only fill keys it leaves free, and only with codes that exist in ISO 3166-2.
 */
function buildIndex(): Map<string, string | null> {
  const built = new Map<string, string | null>();
  const firstLevel = iso31662.filter((entry) => entry.parent.length === 2);
  const valid = new Set(firstLevel.map((entry) => entry.code));
  const add = (names: [country: string, name: string, code: string][], fillOnly: boolean) => {
    const seen = new Map<string, string | null>();
    for (const [country, name, code] of names) {
      for (const key of new Set([plain(name), bare(name)])) {
        const slot = `${country}|${key}`;
        if (fillOnly && built.has(slot)) continue;
        const previous = seen.get(slot);
        seen.set(slot, previous === undefined || previous === code ? code : null);
      }
    }
    for (const [slot, code] of seen) built.set(slot, code);
  };
  add(
    firstLevel.map((entry) => [entry.parent, entry.name, entry.code]),
    false,
  );
  add(
    allCountries.flatMap(([, country, regions]) =>
      regions
        .map(([name, short]): [string, string, string] => [country, name, `${country}-${short}`])
        .filter(([, , code]) => valid.has(code)),
    ),
    true,
  );
  add(
    Object.entries(ENGLISH_NAMES).flatMap(([code, names]) =>
      names.map((name): [string, string, string] => [code.slice(0, 2), name, code]),
    ),
    false,
  );
  return built;
}

/** The ISO 3166-2 code of a first-level subdivision named in English or locally ("Ontario" in CA → CA-ON). */
export function subdivisionCode(countryCode: string, name: string): string | null {
  index ??= buildIndex();
  for (const key of [plain(name), bare(name)]) {
    const code = index.get(`${countryCode}|${key}`);
    if (code !== undefined) return code;
  }
  return null;
}

/** For the test that the hand-kept names point at real codes. */
export const englishNameCodes = Object.keys(ENGLISH_NAMES);
