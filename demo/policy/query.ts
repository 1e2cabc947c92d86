// Query writing for the scripted investigator: the SCOPE step made mechanical. The words come from the
// round's directives (phase, forced subject, hints, reformulation) and the open sub-question; nothing here
// decides when to reformulate or advance: the server's reply does.

const STOP = new Set(
  'a about above after again all also am an and any are as at be because been before being between both but by can did do does doing down during each few for from further had has have having here how i if in into is it its itself just more most no nor not now of off on once only or other our out over own same she should so some such than that the their them then there these they this those through to too under until up very was we were what when where which while who whom why will with would you your'.split(
    ' ',
  ),
);

export const PHASE_WORDS: Record<string, string[]> = {
  SURVEY: ['official', 'report'],
  EXTRACT: ['data', 'statistics'],
  DIVERSIFY: ['news', 'discussion'],
  VERIFY: ['primary', 'document'],
};

/** Words each escape strategy brings into a reformulated query (SPEC 4.1 escape ladder). */
const ESCAPE_WORDS: [RegExp, string[]][] = [
  [/reformulat/i, ['evaluation', 'findings', 'outcome']],
  [/source-type|source type/i, ['dataset', 'registry', 'survey']],
  [/lateral/i, ['comparable', 'schemes', 'similar']],
  [/negative/i, ['failed', 'abandoned', 'missing']],
  [/community/i, ['forum', 'experiences', 'staff']],
  [/refram/i, ['assumptions', 'measured', 'defined']],
];
const FALLBACK_WORDS = ['evidence', 'assessment', 'review', 'analysis', 'study', 'results'];

export function terms(s: string): string[] {
  return s
    .toLowerCase()
    .split(/[^\p{L}\p{N}-]+/u)
    .map((t) => t.replace(/^-+|-+$/g, ''))
    .filter((t) => t.length > 0 && !STOP.has(t));
}

/** Content words of a sub-question (4+ letters, no stop words), as drift and scoping use them. */
export function keyTerms(question: string): string[] {
  return terms(question).filter((t) => t.length >= 4);
}

/** 1 − shared/previous over stop-word-free terms: the server's measure of a reformulation. */
export function changeRatio(previous: string, next: string): number {
  const prev = new Set(terms(previous));
  if (prev.size === 0) return 1;
  const cur = new Set(terms(next));
  let shared = 0;
  for (const t of prev) if (cur.has(t)) shared++;
  return 1 - shared / prev.size;
}

export interface QueryInput {
  subject?: string;
  question?: string;
  include: string[];
  phase: string;
  hints: string[];
  reformulateFrom?: string;
  escapeStrategy?: string;
}

export function buildQuery(q: QueryInput): string {
  const words: string[] = [];
  const add = (...xs: string[]) => {
    for (const x of xs) for (const t of terms(x)) if (!words.includes(t)) words.push(t);
  };
  if (q.subject) add(q.subject);
  if (q.question) add(keyTerms(q.question).slice(0, 5).join(' '));
  if (q.include[0]) add(q.include[0]);
  add(...(PHASE_WORDS[q.phase] ?? []));
  // Hints are advice in prose; the terms they put in quotes are meant for the query.
  for (const h of q.hints) for (const m of h.matchAll(/"([^"]+)"/g)) add(m[1]!);
  if (q.reformulateFrom === undefined) return words.join(' ');

  // A reformulation keeps the subject, drops the old wording and brings the escape strategy's words.
  const old = new Set(terms(q.reformulateFrom));
  const keep = q.subject ? terms(q.subject) : [];
  const fresh = words.filter((w) => keep.includes(w) || !old.has(w));
  const escape = ESCAPE_WORDS.find(([re]) => re.test(q.escapeStrategy ?? ''))?.[1] ?? ESCAPE_WORDS[0]![1];
  // The strategy's first two words always go in; more only until half the old terms have changed.
  for (const [i, w] of [...escape, ...FALLBACK_WORDS].entries()) {
    if (i >= 2 && changeRatio(q.reformulateFrom, fresh.join(' ')) >= 0.5 && fresh.length >= 4) break;
    if (!fresh.includes(w) && !old.has(w)) fresh.push(w);
  }
  return fresh.join(' ');
}
