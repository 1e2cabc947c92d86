// The final-report checker (SPEC 6): citations resolve, quotes are in their sources, Sources lists
// exactly the cited ids, every URL was stored, and the required headings exist. Pure: the caller
// supplies the stored sources.
import { canonicalKey } from '../engine/canonical-url.js';
import { projectForMatching, quoteFoundIn } from '../engine/grounding.js';

export const DEGRADED_LINE = 'Degraded: yes — the answer rests on partial information.';

export interface VerifySource {
  id: string;
  url: string;
  canonical_key: string;
  markdown: string;
}

export interface Problem {
  line: number;
  message: string;
}

const CITATION = /\[(S\d+(?:\s*,\s*S\d+)*)\]/g;
const QUOTE = /(?:"([^"\n]{1,3000}?)"|“([^”\n]{1,3000}?)”)\s*\[(S\d+(?:\s*,\s*S\d+)*)\]/g;
const URL_RE = /https?:\/\/[^\s<>()\]\[`"']+/g;
const LISTING = /^\s*[-*]\s*\[(S\d+)\]\s*(.*)$/;

export function verifyReportText(text: string, sources: ReadonlyMap<string, VerifySource>, opts: { degraded: boolean }): Problem[] {
  const problems: Problem[] = [];
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const storedKeys = new Set([...sources.values()].map((s) => s.canonical_key));
  const projected = new Map<string, string>();
  const projection = (s: VerifySource) => {
    const cached = projected.get(s.id);
    if (cached !== undefined) return cached;
    const fresh: string = projectForMatching(s.markdown);
    projected.set(s.id, fresh);
    return fresh;
  };

  let inFence = false;
  let inFrontmatter = lines[0] === '---';
  let section = '';
  let hasTitle = false;
  let methodsLine = -1;
  let sourcesLine = -1;
  let otherSections = 0;
  let degradedLineFound = false;
  const cited = new Map<string, number>();
  const listed = new Map<string, number>();

  lines.forEach((raw, i) => {
    const n = i + 1;
    if (inFrontmatter) {
      if (i > 0 && raw === '---') inFrontmatter = false;
      return;
    }
    if (/^\s*(```|~~~)/.test(raw)) {
      inFence = !inFence;
      return;
    }
    if (inFence) return;
    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(raw);
    if (heading) {
      const depth = heading[1]?.length ?? 0;
      const name = heading[2] ?? '';
      if (depth === 1) hasTitle = true;
      if (depth === 2) {
        section = name;
        if (name === 'Methods') methodsLine = n;
        else if (name === 'Sources') sourcesLine = n;
        else otherSections += 1;
      }
      return;
    }
    if (section === 'Methods' && raw.trim() === DEGRADED_LINE) degradedLineFound = true;

    if (section === 'Sources') {
      const m = LISTING.exec(raw);
      if (m) {
        const id = m[1] as string;
        if (listed.has(id)) problems.push({ line: n, message: `[${id}] is listed twice in Sources` });
        listed.set(id, n);
        const src = sources.get(id);
        if (!src) problems.push({ line: n, message: `Sources lists [${id}], which is not a stored source of this run` });
        for (const found of (m[2] ?? '').match(URL_RE) ?? []) {
          const key = keyOf(found.replace(/[.,;:!?]+$/, ''));
          if (src && key !== src.canonical_key) {
            problems.push({ line: n, message: `the URL listed for [${id}] is not its stored URL (${src.url})` });
          }
        }
        return;
      }
    }

    for (const m of raw.matchAll(CITATION)) {
      for (const id of (m[1] ?? '').split(',').map((s) => s.trim())) {
        if (!cited.has(id)) cited.set(id, n);
        const src = sources.get(id);
        if (!src) problems.push({ line: n, message: `citation [${id}] does not resolve to a stored source; cite only ids fetch_source returned` });
        else if (src.markdown.trim() === '') problems.push({ line: n, message: `source ${id} has no stored text` });
      }
    }
    for (const m of raw.matchAll(QUOTE)) {
      const quote = m[1] ?? m[2] ?? '';
      const ids = (m[3] ?? '').split(',').map((s) => s.trim());
      const candidates = ids.map((id) => sources.get(id)).filter((s): s is VerifySource => s !== undefined);
      if (candidates.length === 0) continue; // already reported as an unresolved citation
      if (!candidates.some((s) => quoteFoundIn(quote, projection(s)))) {
        const short = quote.length > 80 ? `${quote.slice(0, 77)}...` : quote;
        problems.push({ line: n, message: `quote "${short}" is not in the stored text of ${ids.join(', ')}; quote verbatim or paraphrase without quotation marks` });
      }
    }
    for (const found of raw.match(URL_RE) ?? []) {
      const url = found.replace(/[.,;:!?]+$/, '');
      const key = keyOf(url);
      if (key === undefined || !storedKeys.has(key)) {
        problems.push({ line: n, message: `URL ${url} was never stored in this run; fetch it with fetch_source or remove it` });
      }
    }
  });

  if (!hasTitle) problems.push({ line: 1, message: 'the report has no "# " title' });
  if (otherSections === 0) problems.push({ line: 1, message: 'the report has no "## " sections besides Methods and Sources' });
  if (methodsLine < 0) problems.push({ line: lines.length, message: 'missing "## Methods" section (threads, rounds, sources, stop reasons)' });
  if (sourcesLine < 0) problems.push({ line: lines.length, message: 'missing "## Sources" section listing "- [S<n>] <title> — <url>" for each cited source' });
  if (opts.degraded && !degradedLineFound) {
    problems.push({ line: methodsLine > 0 ? methodsLine : lines.length, message: `this run is degraded: add the line "${DEGRADED_LINE}" to ## Methods` });
  }
  if (sourcesLine > 0) {
    for (const [id, line] of cited) {
      if (!listed.has(id)) problems.push({ line, message: `[${id}] is cited but missing from ## Sources` });
    }
    for (const [id, line] of listed) {
      if (!cited.has(id)) problems.push({ line, message: `[${id}] is listed in ## Sources but never cited` });
    }
  }
  return problems.sort((a, b) => a.line - b.line || a.message.localeCompare(b.message));
}

function keyOf(url: string): string | undefined {
  try {
    return canonicalKey(url);
  } catch {
    return undefined;
  }
}
