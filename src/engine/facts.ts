// Fact admission and new-vs-confirming classification (SPEC 4.1).
import { normalizeForMatch, quoteFound, quoteFoundIn } from './grounding.js';
import type { Confidence } from './types.js';

export interface FactInput {
  fact: string;
  url: string;
  source_title?: string;
  quote?: string;
  confidence: Confidence;
  notes?: string;
  sub_questions?: string[];
  confirms_known?: boolean;
}

export interface Admission {
  confidence: Confidence;
  /** Why grounding failed, for the fact's notes; the caller joins it to the caller's own notes. */
  notes?: string;
  grounded: boolean;
  /** For the round's warnings; the caller prefixes the fact's index. */
  warning?: string;
}

/**
 * A fact's identity for "has the thread seen this already": match-normalised, without the sentence
 * punctuation at its end (a "%" or a closing bracket there is content and stays).
 */
export function normalizeFactText(s: string): string {
  return normalizeForMatch(s).replace(/[\s.,;:!?。、]+$/u, '');
}

/**
 * Grounds one fact against the stored text of its URL. With grounding on, a fact that cannot be
 * grounded is downgraded to UNVERIFIED; with it off, confidence is the caller's, but `grounded` is
 * still only true for a quote found in stored text.
 */
export function admitFact(
  f: FactInput,
  ctx: {
    grounding: boolean;
    storedMarkdownFor: (url: string) => string | undefined;
    /** The stored text already projected for matching (grounding.projectForMatching), when the caller caches it. */
    projectedFor?: (url: string) => string | undefined;
  },
): Admission {
  const quote = f.quote?.trim() ? f.quote : undefined;
  const markdown = ctx.storedMarkdownFor(f.url);

  let failure: { note: string; warning: string } | undefined;
  if (quote === undefined) {
    failure = {
      note: 'add a verbatim quote',
      warning: 'has no quote; add a verbatim quote from the text fetch_source returned',
    };
  } else if (markdown === undefined) {
    failure = {
      note: 'URL was not read through fetch_source',
      warning: `its URL ${f.url} was not read through fetch_source; fetch it first so its text is stored`,
    };
  } else if (!found(quote, markdown, ctx.projectedFor?.(f.url))) {
    failure = {
      note: 'quote not found in the stored text of the source',
      warning: `its quote was not found in the stored text of ${f.url}; copy the words exactly as fetch_source returned them`,
    };
  }

  if (!failure) return { confidence: f.confidence, grounded: true };
  if (!ctx.grounding) return { confidence: f.confidence, grounded: false };
  return {
    confidence: 'UNVERIFIED',
    notes: failure.note,
    grounded: false,
    warning: `not grounded, recorded as UNVERIFIED: ${failure.warning}`,
  };
}

/**
 * true = new: not marked confirms_known and its normalised text is neither an earlier fact of the
 * thread nor an earlier fact of this round. `earlierFactTexts` may be raw or already normalised.
 */
export function classifyNew(
  facts: readonly { fact: string; confirms_known?: boolean }[],
  earlierFactTexts: ReadonlySet<string>,
): boolean[] {
  const seen = new Set<string>();
  for (const t of earlierFactTexts) seen.add(normalizeFactText(t));
  return facts.map((f) => {
    const key = normalizeFactText(f.fact);
    const isNew = f.confirms_known !== true && !seen.has(key);
    seen.add(key);
    return isNew;
  });
}

// A number: digits with inner points or commas ("3.11", "2,500", "1.4"), not part of a word ("S3", "x86").
// Not the tail of an identifier glued to a letter: "Q2.14" states no number 14 (trial 13's false alarm).
const NUMBER = /(?<![\p{L}\p{N}]|[\p{L}\p{N}][.,])\d+(?:[.,]\d+)*(?![\p{L}\p{N}])/gu;
const numberKey = (n: string) => n.replace(/,(?=\d{3}\b)/g, '');
// In what states a number, a unit may be written onto it ("(5min)", "300ms", "v3"), and a release the fact
// names by its minor version is stated by a patch release ("3.11" by "Python 3.11.2"): trial 8's false alarms.
const QUOTED_NUMBER = /\d+(?:[.,]\d+)*/gu;

/**
 * The numbers a fact states that its quote does not contain, in fact order: a fact may say no more than
 * its quote, and a number is where a paraphrase most often does (reading-sources.md). "2,500" and
 * "2500" are one number; a number spelled in words in the quote is not recognised, so this only warns.
 * `headings` (the ones enclosing the quote on its page) count as quoted: a changelog states the version
 * only in the heading above the sentence.
 */
export function numbersNotInQuote(fact: string, quote: string | undefined, headings: readonly string[] = []): string[] {
  if (!quote?.trim()) return [];
  const inQuote = new Set([quote, ...headings].flatMap((t) => [...t.normalize('NFKC').matchAll(QUOTED_NUMBER)].map((m) => numberKey(m[0]))));
  const stated = (k: string) => inQuote.has(k) || [...inQuote].some((q) => q.startsWith(`${k}.`));
  const missing: string[] = [];
  for (const m of fact.normalize('NFKC').matchAll(NUMBER)) {
    const n = m[0];
    if (!stated(numberKey(n)) && !missing.includes(n)) missing.push(n);
  }
  return missing;
}

function found(quote: string, markdown: string, projected: string | undefined): boolean {
  return projected !== undefined ? quoteFoundIn(quote, projected) : quoteFound(quote, markdown);
}
