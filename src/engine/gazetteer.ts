// Country names and scope regions for geographic drift (SPEC 4.1), built from the world-countries package.
import worldCountries from 'world-countries';
import type { Country } from 'world-countries';

// The package's typings declare an ES default export, while Node's CommonJS interop hands the default
// import the array itself (bundlers differ again); accept either shape.
const loaded: unknown = worldCountries;
const COUNTRIES: readonly Country[] = Array.isArray(loaded)
  ? (loaded as Country[])
  : (loaded as { default: Country[] }).default;

// EU membership is political, not geographic, and world-countries does not record it.
const EU_MEMBERS: readonly string[] = [
  'AT', 'BE', 'BG', 'HR', 'CY', 'CZ', 'DK', 'EE', 'FI', 'FR', 'DE', 'GR', 'HU', 'IE',
  'IT', 'LV', 'LT', 'LU', 'MT', 'NL', 'PL', 'PT', 'RO', 'SK', 'SI', 'ES', 'SE',
];

/** How a name must be written in the text to count. */
type CaseRule = 'any' | 'capitalized' | 'upper';

// English names in everyday use that the package lacks (it spells Turkey "Türkiye" and has no entry
// for the UK's constituent countries), and short forms that are only safe in capitals ("US" vs "us").
const EXTRA_NAMES: readonly (readonly [string, readonly string[], CaseRule])[] = [
  ['Turkey', ['TR'], 'capitalized'],
  ['Britain', ['GB'], 'any'],
  ['England', ['GB'], 'any'],
  ['Scotland', ['GB'], 'any'],
  ['Wales', ['GB'], 'any'],
  ['Northern Ireland', ['GB'], 'any'],
  ['UK', ['GB'], 'upper'],
  ['U.K.', ['GB'], 'upper'],
  ['US', ['US'], 'upper'],
  ['U.S.', ['US'], 'upper'],
  ['U.S.A.', ['US'], 'upper'],
  ['New Guinea', ['PG', 'ID'], 'any'],
];

// Phrases that contain a country name but name something else; matched like names, they yield no
// country, and because the longest match wins they hide the country word inside them.
const NOT_COUNTRIES: readonly string[] = [
  'New Mexico',
  'New Jersey',
  'Jersey City',
  'guinea pig',
  'guinea pigs',
  'guinea fowl',
];

// Country names that are also common lower-case English words (china plates, a roast turkey).
const CAPITALIZED_ONLY: ReadonlySet<string> = new Set(['china', 'turkey', 'guinea', 'jersey', 'chad']);

// Alternative spellings that are ordinary words or brands far more often than places.
const IGNORED_ALT_SPELLINGS: ReadonlySet<string> = new Set(['mann', 'emirates']);

/** Accent-free tokens: "Côte d'Ivoire" → ["Cote", "d", "Ivoire"]. Case is kept for the case rules. */
function rawTokens(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 0);
}

function nameKey(name: string): string {
  return rawTokens(name).join(' ').toLowerCase();
}

function letterCount(s: string): number {
  return (s.match(/\p{L}/gu) ?? []).length;
}

interface NameEntry {
  codes: Set<string>;
  rule: CaseRule;
}

interface Matcher {
  names: Map<string, NameEntry>;
  firstTokens: Set<string>;
  longest: number;
}

let matcher: Matcher | undefined;

function addName(m: Matcher, name: string, codes: readonly string[], rule: CaseRule): void {
  const key = nameKey(name);
  if (!key) return;
  const entry = m.names.get(key);
  if (entry) {
    for (const c of codes) entry.codes.add(c);
    // A name listed both plainly and as an acronym is safe in any case.
    if (rule === 'any') entry.rule = 'any';
  } else {
    m.names.set(key, { codes: new Set(codes), rule });
  }
}

function buildMatcher(): Matcher {
  const m: Matcher = { names: new Map(), firstTokens: new Set(), longest: 1 };
  for (const c of COUNTRIES) {
    addName(m, c.name.common, [c.cca2], 'any');
    addName(m, c.name.official, [c.cca2], 'any');
    for (const alt of c.altSpellings) {
      if (IGNORED_ALT_SPELLINGS.has(alt.toLowerCase())) continue;
      if (letterCount(alt) >= 4) addName(m, alt, [c.cca2], 'any');
      // Acronyms such as USA, UAE, DRC: too short to trust in lower case, but unambiguous in capitals.
      else if (/^[A-Z]{3,}$/.test(alt)) addName(m, alt, [c.cca2], 'upper');
    }
  }
  for (const [name, codes, rule] of EXTRA_NAMES) addName(m, name, codes, rule);
  for (const phrase of NOT_COUNTRIES) m.names.set(nameKey(phrase), { codes: new Set(), rule: 'any' });
  for (const [key, entry] of m.names) {
    if (CAPITALIZED_ONLY.has(key) && entry.rule === 'any') entry.rule = 'capitalized';
    const words = key.split(' ');
    m.firstTokens.add(words[0]!);
    m.longest = Math.max(m.longest, words.length);
  }
  return m;
}

function getMatcher(): Matcher {
  matcher ??= buildMatcher();
  return matcher;
}

function caseAllows(rule: CaseRule, written: readonly string[]): boolean {
  if (rule === 'capitalized') return /^\p{Lu}/u.test(written[0] ?? '');
  if (rule === 'upper') return written.every((w) => /^[\p{Lu}\p{N}]+$/u.test(w));
  return true;
}

/**
 * ISO alpha-2 codes of the countries a text names, whole words only and the longest name first, so
 * "Papua New Guinea" is not also read as Guinea and "Nigeria" never as Niger.
 */
export function countriesMentioned(text: string): Set<string> {
  const m = getMatcher();
  const written = rawTokens(text);
  const lower = written.map((t) => t.toLowerCase());
  const found = new Set<string>();
  let at = 0;
  while (at < lower.length) {
    let step = 1;
    if (m.firstTokens.has(lower[at]!)) {
      for (let len = Math.min(m.longest, lower.length - at); len >= 1; len--) {
        const entry = m.names.get(lower.slice(at, at + len).join(' '));
        if (entry && caseAllows(entry.rule, written.slice(at, at + len))) {
          for (const c of entry.codes) found.add(c);
          step = len;
          break;
        }
      }
    }
    at += step;
  }
  return found;
}

function resolveRegion(region: string): readonly string[] | undefined {
  const key = nameKey(region);
  if (!key) return undefined;
  if (key === 'eu' || key === 'european union') return EU_MEMBERS;

  const byRegion = COUNTRIES.filter((c) => nameKey(c.region) === key).map((c) => c.cca2);
  if (byRegion.length > 0) return byRegion;
  const bySubregion = COUNTRIES.filter((c) => c.subregion && nameKey(c.subregion) === key).map((c) => c.cca2);
  if (bySubregion.length > 0) return bySubregion;

  const code = region.trim().toUpperCase();
  const byCode = COUNTRIES.find((c) => c.cca2 === code || c.cca3 === code);
  if (byCode) return [byCode.cca2];

  // A scope entry is a whole field, not running text, so every listed name counts, however short.
  const byName = COUNTRIES.filter(
    (c) =>
      nameKey(c.name.common) === key ||
      nameKey(c.name.official) === key ||
      c.altSpellings.some((a) => nameKey(a) === key),
  ).map((c) => c.cca2);
  if (byName.length > 0) return byName;
  const extra = EXTRA_NAMES.find(([name]) => nameKey(name) === key);
  return extra ? extra[1] : undefined;
}

/**
 * ISO alpha-2 codes covered by scope regions: country names, ISO codes, world-countries regions
 * ("Europe") and subregions ("Western Europe"), or "EU". Unknown entries add nothing; see unknownRegions.
 */
export function expandRegions(regions: readonly string[]): Set<string> {
  const codes = new Set<string>();
  for (const r of regions) for (const c of resolveRegion(r) ?? []) codes.add(c);
  return codes;
}

/** The scope regions the gazetteer cannot place, so a brief can be corrected before they are ignored. */
export function unknownRegions(regions: readonly string[]): string[] {
  return regions.filter((r) => resolveRegion(r) === undefined);
}

/** Every ISO alpha-2 code the gazetteer knows. */
export function allCountryCodes(): Set<string> {
  return new Set(COUNTRIES.map((c) => c.cca2));
}
