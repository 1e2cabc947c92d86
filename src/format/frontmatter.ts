// Shared by src/store (source files) and src/reports (artifacts): neither layer owns the format.
// Frontmatter in one place so every artifact renders its YAML the same way: keys in the order given,
// plain scalars, LF endings. The `yaml` package quotes only what must be quoted, which keeps diffs quiet.
import { lazyLibrary } from '../lazy-library.js';

let yamlLib: typeof import('yaml') | undefined;

/** yaml on first use (see lazy-library.ts). */
function yamlLibrary(): typeof import('yaml') {
  yamlLib ??= lazyLibrary<typeof import('yaml')>('yaml');
  return yamlLib;
}

export function withFrontmatter(data: Record<string, unknown>, body: string): string {
  const yaml = yamlLibrary().stringify(data, { lineWidth: 0, defaultStringType: 'PLAIN', defaultKeyType: 'PLAIN' });
  return `---\n${yaml}---\n${body.endsWith('\n') ? body : `${body}\n`}`;
}

/** Splits a file written by withFrontmatter; body is returned byte-exact (it is what sha256 covers). */
export function splitFrontmatter(text: string): { data: Record<string, unknown>; body: string } | undefined {
  if (!text.startsWith('---\n')) return undefined;
  const end = text.indexOf('\n---\n', 3);
  if (end < 0) return undefined;
  const data = yamlLibrary().parse(text.slice(4, end + 1)) as unknown;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return undefined;
  return { data: data as Record<string, unknown>, body: text.slice(end + 5) };
}
