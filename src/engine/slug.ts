// File-name slugs (SPEC 6): lower-case ASCII with hyphens, unable to escape a folder, distinct per name.
import { createHash } from 'node:crypto';

const HASH_CHARS = 6;

function shortHash(s: string): string {
  return createHash('sha256').update(s, 'utf8').digest('hex').slice(0, HASH_CHARS);
}

function asciiBase(name: string, maxLen: number): string {
  const base = name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, maxLen)
    .replace(/-+$/, '');
  return base || 'x';
}

/**
 * `<ascii-base>-<6 hex of sha256(name)>`: the hash keeps names that slug alike ("Thread: A/B" and
 * "thread a b") apart, and the base keeps the file name readable.
 */
export function slug(name: string, maxLen = 48): string {
  if (!Number.isInteger(maxLen) || maxLen < 1) throw new RangeError(`slug maxLen must be a positive integer, got ${maxLen}`);
  return `${asciiBase(name, maxLen)}-${shortHash(name)}`;
}

/**
 * A run id for a question. Spacing at the ends or between words does not make a different question,
 * so the same question typed again resumes the same run.
 */
export function runIdFor(question: string): string {
  return slug(question.trim().replace(/\s+/g, ' '), 40);
}
