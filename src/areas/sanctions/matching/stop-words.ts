/**
 * Words that carry no identity: titles and honorifics (dropped from every name) and legal-form words (dropped from
 * organisation names only, so a person called "Co" or "Sa" keeps that token). Kept as data so tuning is one edit.
 */
const words = (text: string): ReadonlySet<string> => new Set(text.trim().split(/\s+/));

export const HONORIFICS = words(`
  mr mrs ms miss mx dr doctor prof professor sir dame lord lady herr frau monsieur mme mlle senor senora sra dona
  gospodin excellency hon honorable honourable
  sheikh sheik shaikh shaykh cheikh haji hajji hadji alhaji alhaj hajj mullah mulla maulana mawlana maulvi mawlawi
  mawlavi moulvi mufti imam ayatollah hojatoleslam hojjatoleslam qari rev reverend father bishop archbishop rabbi
  general gen colonel col major maj captain capt lieutenant lt admiral adm brigadier brig commander cmdr marshal
  sergeant sgt corporal cpl commodore
`);

export const LEGAL_FORMS = words(`
  llc ltd limited gmbh mbh ooo oao zao pao ao tov sa sas sarl sl srl spa jsc pjsc ojsc cjsc co company corp
  corporation inc incorporated plc ag kg bv nv llp lp fze fzco fzc fzllc fzlle dmcc pte pvt private public sdn bhd
  pt tbk as asa ab oy oyj kft zrt sp zoo doo ad eood ood sro ltda cia sac saic cv rl ulc pty gie est establishment
  wll spc psc qsc saog saoc tic sti ic jv
`);

/**
 * Arabic articles as separate tokens ("al-Rahman", "ar-Rashid"): spelt many ways and often omitted, so they are
 * dropped when the name has other tokens. Joined forms ("Alrahman") are left to the joined-token comparison.
 */
export const PARTICLES = words('al el ul ad ar as ash at az');

/**
 * One spelling for name elements transliterated many ways, at the start of a token: "Abdul", "Abdel", "Abd al"
 * and "Abdoul" are all عبد ال ("servant of the"), so "Abdulrahman" and "Abd al-Rahman" meet as "abd…rahman".
 */
export const CANONICAL_PREFIXES: ReadonlyArray<{
  canonical: string;
  written: string[];
  whole_word: boolean;
}> = [
  { canonical: 'abd', written: ['abdul', 'abdel', 'abdal', 'abdoul', 'abdol', 'abdool'], whole_word: false },
  { canonical: 'bin', written: ['ibn'], whole_word: true },
];
