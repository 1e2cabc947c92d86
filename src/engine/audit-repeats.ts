// What an audit page need not show again (SPEC 11.1, reply economy): a passage the auditor was already
// shown, and a context made only of statements the page shows anyway.
import { createHash } from 'node:crypto';

/** A short stable key for a passage's text, so the run state can say which ones an auditor was shown. */
export function passageKey(text: string): string {
  return createHash('sha256').update(text.replace(/\s+/gu, ' ').trim()).digest('hex').slice(0, 16);
}

const fold = (s: string): string => s.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();

/**
 * Whether `context` says something besides the given statements: what is left once each statement is
 * taken out holds a letter or a digit. A sentence split into several pairs is shown whole by its statements.
 */
export function contextAdds(context: string, statements: readonly string[]): boolean {
  let rest = fold(context);
  // Longest first, so a statement contained in another does not leave the longer one's remainder behind.
  for (const s of [...statements].map((x) => fold(x).replace(/[.;:!?,]+$/u, '')).filter((x) => x.length > 0).sort((a, b) => b.length - a.length)) {
    rest = rest.split(s).join(' ');
  }
  return /[\p{L}\p{N}]/u.test(rest);
}
