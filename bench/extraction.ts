// Extraction quality: folds in bench/extract.ts (owned by the fetch layer), which compares our pipeline
// with a turndown baseline on recall, precision, F1, size reduction and time per page.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Row, Section } from './report.js';
import { REPO } from './targets.js';

const PENDING = 'TODO: extraction section pending — bench/extract.ts (runExtractBench) is not in the repo yet';

type Cell = string | number | boolean | null | undefined;

/** An array of plain records as a markdown table, for whatever shape runExtractBench returns. */
function recordsTable(records: Record<string, Cell>[]): string[] {
  const keys = [...new Set(records.flatMap((r) => Object.keys(r)))];
  const fmt = (v: Cell) => (typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(3)) : String(v ?? ''));
  return [`| ${keys.join(' | ')} |`, `|${keys.map(() => '---').join('|')}|`, ...records.map((r) => `| ${keys.map((k) => fmt(r[k]).replace(/\|/g, '\\|')).join(' | ')} |`)];
}

const isRow = (x: unknown): x is Row => typeof x === 'object' && x !== null && 'figure' in x && 'ours' in x;

/**
 * Accepts: a Section; Row[]; { rows?, notes?, markdown?, table? }; a markdown string; or an array of
 * plain records (rendered as a table under the main one).
 */
export function fold(result: unknown): Pick<Section, 'rows' | 'notes'> {
  if (typeof result === 'string') return { rows: [], notes: [result] };
  if (Array.isArray(result)) {
    if (result.every(isRow)) return { rows: result, notes: [] };
    return { rows: [], notes: recordsTable(result as Record<string, Cell>[]) };
  }
  if (result && typeof result === 'object') {
    const o = result as { rows?: unknown; notes?: unknown; markdown?: unknown; table?: unknown };
    const rows = Array.isArray(o.rows) && o.rows.every(isRow) ? o.rows : [];
    const notes: string[] = [];
    if (Array.isArray(o.rows) && rows.length === 0) notes.push(...recordsTable(o.rows as Record<string, Cell>[]));
    if (Array.isArray(o.notes)) notes.push(...o.notes.map(String));
    for (const k of ['table', 'markdown'] as const) if (typeof o[k] === 'string') notes.push(o[k] as string);
    return { rows, notes };
  }
  return { rows: [], notes: [`runExtractBench returned ${JSON.stringify(result)?.slice(0, 200)}`] };
}

export async function extraction(): Promise<Section> {
  const section: Section = { name: 'extraction', title: 'Extraction quality', rows: [], notes: [] };
  const file = path.join(REPO, 'bench', 'extract.ts');
  if (!fs.existsSync(file)) {
    section.rows.push({ figure: 'extraction: recall / precision / F1 / reduction / ms per page vs turndown', ours: 'pending', reference: 'pending', goal: '—', met: null, because: 'bench/extract.ts not written yet' });
    section.notes.push(PENDING);
    console.error(PENDING);
    return section;
  }
  const mod = (await import(pathToFileURL(file).href)) as { runExtractBench?: () => unknown };
  if (typeof mod.runExtractBench !== 'function') {
    section.rows.push({ figure: 'extraction', ours: 'not measured', met: null, because: 'bench/extract.ts exports no runExtractBench()' });
    return section;
  }
  const folded = fold(await mod.runExtractBench());
  section.rows.push(...folded.rows);
  section.notes.push(...folded.notes);
  if (folded.rows.length === 0) {
    section.rows.push({ figure: 'extraction quality (see the Extraction quality table below)', ours: 'see below', reference: 'turndown', goal: '—' });
  }
  return section;
}
