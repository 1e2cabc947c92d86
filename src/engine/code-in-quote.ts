// A fact may say no more than its quote (reading-sources.md). The numeric check catches a number a
// paraphrase adds; this catches the other thing a manual's paraphrase adds most: a command line, an option
// or an identifier that the quoted sentence does not name (a trial recorded as VERIFIED a fact stating a
// command its quote did not hold).

// Code spans (`…`, any run of backticks), long options (--purge) and paths of two segments or more
// (/etc/init.d), outside code spans; not a lone "/" ("and/or") or a dash, nor the full stop or colon after one.
const CODE_SPAN = /(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)/g;
const OPTION = /(?<![\p{L}\p{N}-])--?[A-Za-z][\w-]*(?:=[^\s,;)]+(?<![.:]))?/gu;
const PATH = /(?<![\p{L}\p{N}/])\/[\w.+-]+(?:\/[\w.+-]+)+\/?(?<![.])/gu;

/**
 * Text as code is compared: no markdown escapes, backticks or emphasis marks (a manual's `_new-version_`
 * placeholder; dropped on both sides, so `rm_conffile` still matches itself), quotes folded, one space,
 * lower case.
 */
function codeForm(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/\\([\\`*_{}[\]()#+\-.!|>~])/g, '$1')
    .replace(/[`*_]/g, '')
    .replace(/[‘’]/g, "'")
    .replace(/[“”]/g, '"')
    // A PDF's text sets an option's dashes as one en or em dash ("–default-packages").
    .replace(/[‐‑‒–—―−]/g, '-')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/** The code-style terms a fact names: its code spans, then the options and paths written outside them. */
export function codeTerms(fact: string): string[] {
  const out: string[] = [];
  const add = (t: string) => {
    const term = t.trim();
    // One character (`a`, `$`) names nothing a quote could be checked for.
    if (term.length >= 2 && !out.includes(term)) out.push(term);
  };
  for (const m of fact.matchAll(CODE_SPAN)) add(m[2] ?? '');
  const outside = fact.replace(CODE_SPAN, ' ');
  for (const m of outside.matchAll(OPTION)) add(m[0]);
  for (const m of outside.matchAll(PATH)) add(m[0]);
  return out;
}

/**
 * The code-style terms a fact states that neither its quote nor `headings` (those enclosing the quote on
 * its page, where a manual names the command a section documents) contain, in fact order. Compared
 * without case or markdown escapes; only warns, as a command can be right without being quoted.
 */
export function codeNotInQuote(fact: string, quote: string | undefined, headings: readonly string[] = []): string[] {
  if (!quote?.trim()) return [];
  const where = [quote, ...headings].map(codeForm);
  const bare = where.map(unhyphenated);
  return codeTerms(fact).filter((t) => {
    const want = codeForm(t);
    if (want === '' || where.some((w) => w.includes(want))) return false;
    // A PDF's line breaks drop or add hyphens ("--norestore" for --no-restore): a term long enough to be
    // told apart without them counts as quoted when it is there hyphen for hyphen aside.
    const plain = unhyphenated(want);
    return !(plain.length >= MIN_UNHYPHENATED && bare.some((w) => w.includes(plain)));
  });
}

/** Below this many characters without hyphens, a term (`-d`, `-a`) would match too much of any quote. */
const MIN_UNHYPHENATED = 5;

function unhyphenated(text: string): string {
  return text.replace(/-/g, '');
}
