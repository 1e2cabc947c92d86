// Fills the markdown templates in templates/. The writers pass data; the templates own the markup, so
// changing a template changes the output.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import Mustache from 'mustache';

export type TemplateName = 'brief' | 'micro-report' | 'thread-completion' | 'critique' | 'audit';

let templatesDir: string | undefined;
const cache = new Map<TemplateName, string>();

/** templates/ sits at the repo root; the bundle (dist/) and the sources (src/reports/) reach it differently. */
function findTemplatesDir(): string {
  if (templatesDir) return templatesDir;
  // A user may keep their own templates; the writers fill whatever they find there.
  const override = process.env.DEEP_RESEARCH_TEMPLATES;
  if (override) {
    templatesDir = path.resolve(override);
    return templatesDir;
  }
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const candidate = path.join(dir, 'templates');
    if (fs.existsSync(path.join(candidate, 'brief.md'))) {
      templatesDir = candidate;
      return candidate;
    }
    dir = path.dirname(dir);
  }
  throw new Error('templates/ not found beside the server bundle');
}

export function loadTemplate(name: TemplateName): string {
  let t = cache.get(name);
  if (t === undefined) {
    t = fs.readFileSync(path.join(findTemplatesDir(), `${name}.md`), 'utf8');
    cache.set(name, t);
  }
  return t;
}

export function render(name: TemplateName, view: object): string {
  // Values are escaped for markdown by the writers (cell()), not for HTML.
  const out = Mustache.render(loadTemplate(name), view, {}, { escape: (s: string) => s });
  return `${out.replace(/\r\n?/g, '\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}

// Every line break a reader or a renderer might honour, CommonMark's and Unicode's.
const BREAKS = /\r\n|[\r\n\u2028\u2029\u0085\v\f]/g;

/** A markdown table cell: one line, pipes escaped, never empty. */
export function cell(value: string | number | boolean | undefined | null): string {
  if (value === undefined || value === null || value === '') return '—';
  return String(value).replace(BREAKS, ' ').replace(/\|/g, '\\|').trim() || '—';
}

/** Inline text (a list item or a line): one line, no table escaping. */
export function inline(value: string | undefined): string {
  if (value === undefined || value.trim() === '') return '—';
  return value.replace(/\s*(?:\r\n|[\r\n\u2028\u2029\u0085\v\f])\s*/g, ' ').trim();
}

/**
 * Free text of several lines (a round summary): kept as paragraphs, but a line that would start a
 * heading, a setext underline or a frontmatter fence is escaped, so text can never add a section.
 */
export function block(value: string | undefined): string {
  if (value === undefined || value.trim() === '') return '—';
  return value
    .replace(BREAKS, '\n')
    .split('\n')
    .map((line) => (/^ {0,3}(#|=+\s*$|-{2,}\s*$|\+{3})/.test(line) ? `\\${line.trimStart()}` : line))
    .join('\n')
    .trim();
}

/** An address made safe inside a link or a table cell: what would end either is percent-encoded. */
function href(url: string): string {
  return url.replace(/[\s()<>|\\[\]]/gu, (c) =>
    c.charCodeAt(0) < 0x80 ? `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}` : encodeURIComponent(c),
  );
}

/**
 * `[S3](sources/S3.md) <url>`: a source id linked to its stored text, which a reviewer in git can open and
 * which does not change when the page does, with the page's address beside it (SPEC 6). The path is
 * relative to the run folder, where every report lives. Safe inside a table cell. A page never stored
 * links to its address only.
 */
export function sourceLink(sourceId: string | undefined, url?: string): string {
  if (sourceId === undefined || !/^S\d+$/.test(sourceId)) return url ? `[${sourceId ?? 'not stored'}](${href(url)})` : (sourceId ?? 'not stored');
  return `[${sourceId}](sources/${sourceId}.md)${url ? ` <${href(url)}>` : ''}`;
}
