// The final-report checker (SPEC 6): citations resolve, quotations are in their one cited source,
// Sources lists exactly the cited ids, every URL was stored, every stored source still hashes to its sha256,
// every claim–source pair has a SUPPORTED verdict, and the required headings exist. Pure: the caller
// supplies the stored sources and the audit.
import { createHash } from 'node:crypto';
import { auditCounts, auditProblems, JUDGE_BY_TOOLS, type AuditCounts, type AuditState } from '../engine/audit.js';
import { canonicalKey } from '../engine/canonical-url.js';
import { projectForMatching, quoteFoundIn } from '../engine/grounding.js';
import { parseReport, type Uncited } from '../engine/statements.js';

export const DEGRADED_LINE = 'Degraded: yes — the answer rests on partial information.';

export interface VerifySource {
  id: string;
  url: string;
  canonical_key: string;
  markdown: string;
  /** The hash recorded when the source was stored; absent for a source stored without one. */
  sha256?: string;
}

export interface VerifyResult {
  problems: Problem[];
  /** Citation ids checked: every id of every citation group outside the Sources list. */
  citations: number;
  /** Claim–source pairs of the report as it stands. */
  pairs: number;
  audit: AuditCounts;
  /** Checkable body sentences that cite nothing (SPEC 4.1 uncited statements). */
  uncited: { line: number; text: string }[];
}

/**
 * The whole check. Without `audit` the claim audit is left out (mechanics only, for `verify --no-audit`);
 * the caller must then say so.
 */
export function verifyReport(
  text: string,
  sources: ReadonlyMap<string, VerifySource>,
  opts: { degraded: boolean; audit?: AuditState; /** A person at the command line reads the problems, not the agent. */ person?: boolean },
): VerifyResult {
  const problems = verifyReportText(text, sources, opts);
  const parsed = parseReport(text);
  const audit = auditCounts(opts.audit ?? { version: 1, verdicts: {} }, parsed.pairs);
  if (opts.audit) problems.push(...auditProblems(opts.audit, parsed.pairs, opts.person ? JUDGE_BY_COMMAND : JUDGE_BY_TOOLS));
  for (const u of parsed.uncited) problems.push({ line: u.line, message: uncitedMessage(u, opts.audit, opts.person === true) });
  let citations = 0;
  const { body } = withoutSourcesList(text);
  for (const m of body.matchAll(CITATION)) citations += (m[1] ?? '').split(',').length;
  return { problems: problems.sort((a, b) => a.line - b.line || a.message.localeCompare(b.message)), citations, pairs: parsed.pairs.length, audit, uncited: parsed.uncited.map((u) => ({ line: u.line, text: u.text })) };
}

/** What a person at the command line does to have pairs judged: the agent CLI's command runs the audit. */
export const JUDGE_BY_COMMAND = 'by running /deep-research-verify <run_id> in your agent CLI (/deep-research:deep-research-verify from the plugin)';

/** What to do about an uncited sentence, with what the audit found for it when it has judged it. */
function uncitedMessage(u: Uncited, audit: AuditState | undefined, person: boolean): string {
  const v = audit?.verdicts[u.pair_id];
  const what = `uncited statement "${u.text.length > 80 ? `${u.text.slice(0, 77)}...` : u.text}"`;
  if (v?.verdict === 'SUPPORTED' && v.source_id) return `${what}: the audit found it in ${v.source_id}; cite [${v.source_id}] at its end`;
  if (v) return `${what} is ${v.verdict}${v.source_id ? ` in ${v.source_id}` : ''}: ${v.note ?? ''}. Narrow it to what a source says and cite it, or remove it`;
  return `${what}: cite the source that says it, or remove it${person ? '' : ' (audit_report offers it with source_id null)'}`;
}

function withoutSourcesList(text: string): { body: string } {
  return { body: text.replace(/\r\n?/g, '\n').split('\n').filter((l) => !LISTING.test(l)).join('\n') };
}

export interface Problem {
  line: number;
  message: string;
  /** The file the problem is in, relative to the run folder, when it is not the report (line is then 0). */
  file?: string;
}

const CITATION = /\[(S\d+(?:\s*,\s*S\d+)*)\]/g;
// Web URLs and local sources' addresses (local:<folder>/<path>, percent-encoded, so one token).
const URL_RE = /(?:https?:\/\/|local:[a-z0-9][a-z0-9._-]{0,63}\/)[^\s<>()\]\[`"']+/g;
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
    for (const found of raw.match(URL_RE) ?? []) {
      const url = found.replace(/[.,;:!?]+$/, '');
      const key = keyOf(url);
      if (key === undefined || !storedKeys.has(key)) {
        problems.push({ line: n, message: `URL ${url} was never stored in this run; fetch it with fetch_source or remove it` });
      }
    }
  });

  checkQuotations(text, sources, projection, problems);
  checkHashes(cited, sources, problems);

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

/** SPEC 4.1 quotations: one id per quotation, found in that source's stored text. */
function checkQuotations(text: string, sources: ReadonlyMap<string, VerifySource>, projection: (s: VerifySource) => string, problems: Problem[]): void {
  for (const q of parseReport(text).quotations) {
    const short = q.text.length > 80 ? `${q.text.slice(0, 77)}...` : q.text;
    if (q.ids.length === 0) {
      problems.push({ line: q.line, message: `quotation "${short}" has no citation after it in its sentence; follow it with the one source that holds it, "…" [S<n>]` });
      continue;
    }
    if (q.ids.length > 1) {
      problems.push({ line: q.line, message: `quotation "${short}" is cited to several sources (${q.ids.join(', ')}); cite the one source that holds it` });
      continue;
    }
    const id = q.ids[0] as string;
    const src = sources.get(id);
    if (!src) continue; // already reported as an unresolved citation
    if (!quoteFoundIn(q.text, projection(src))) {
      // The remedy once: it is the same for every quote.
      const remedy = problems.some((p) => p.message.startsWith('quote "')) ? '' : '; quote verbatim or paraphrase without quotation marks';
      problems.push({ line: q.line, message: `quote "${short}" is not in the stored text of ${id}${remedy}` });
    }
  }
}

/**
 * A stored source whose body no longer hashes to its recorded sha256 was edited after it was stored: every
 * stored source is checked, cited or not (SPEC 6). A cited one is reported at its first citation, an
 * uncited one at line 0 (no line of the report), naming its own file.
 */
function checkHashes(cited: ReadonlyMap<string, number>, sources: ReadonlyMap<string, VerifySource>, problems: Problem[]): void {
  for (const [id, src] of sources) {
    if (src.sha256 === undefined) continue;
    const actual = createHash('sha256').update(src.markdown).digest('hex');
    if (actual === src.sha256) continue;
    const line = cited.get(id);
    problems.push(
      line !== undefined
        ? { line, message: `source ${id} was changed after it was stored: sources/${id}.md no longer matches its sha256; restore the stored text (e.g. from git) or cite another source` }
        : { line: 0, file: `sources/${id}.md`, message: `source ${id} (not cited) was changed after it was stored: sources/${id}.md no longer matches its sha256; restore the stored text (e.g. from git)` },
    );
  }
}

function keyOf(url: string): string | undefined {
  try {
    return canonicalKey(url);
  } catch {
    return undefined;
  }
}
