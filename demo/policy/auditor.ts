// Step 8's fresh subagent: the claim auditor. It pages through audit_report and judges each pair that has
// no verdict, then records the page with record_audit. Scripted, its judgement comes from the scenario:
// a statement quoting a fact is SUPPORTED by the source that holds the quotation; a statement made of
// answer clauses is SUPPORTED when the source's facts cover every clause's topic, PARTIAL when they cover
// some (the note names the rest), UNSUPPORTED otherwise. Every passage it records is a fact quote of the
// cited page, which the server checks against the stored text.
import { normaliseForMatch, parseReply } from './reply.js';
import { pageFor, type AnswerClause, type Scenario, type ScenarioFact } from './scenario.js';
import { calls, mcp, type Policy } from './types.js';

const PROMPT = /^Audit the claims of deep-research run (\S+)\.$/m;

export function auditorPrompt(runId: string): string {
  return [
    `Audit the claims of deep-research run ${runId}.`,
    'Call audit_report with run_id, then again with offset set to next_offset until it returns none. Judge each pair without a verdict from its passages (fetch_source with the URL and a focus when they are not enough) and record each page with record_audit: {pair_id, verdict, passage, note}. Report the counts and every pair that is not SUPPORTED, with its note.',
  ].join('\n');
}

export function parseAuditorPrompt(prompt: string): { runId: string } | undefined {
  const m = PROMPT.exec(prompt);
  return m ? { runId: m[1]! } : undefined;
}

interface PairView {
  pair_id: string;
  statement: string;
  source_id: string;
  passages: string[];
  verdict?: string;
}

interface Judged {
  pair_id: string;
  verdict: 'SUPPORTED' | 'PARTIAL' | 'UNSUPPORTED';
  passage?: string;
  note?: string;
}

export function* auditor(task: { runId: string }, env: { scenario: Scenario }): Policy {
  let counts = '';
  const notSupported: string[] = [];
  for (let offset: number | undefined = 0, guard = 0; offset !== undefined && guard < 50; guard++) {
    const [res] = yield* calls(mcp('audit_report', { run_id: task.runId, ...(offset ? { offset } : {}) }));
    if (res!.isError) return `audit_report refused: ${res!.text}`;
    const r = parseReply(res!.text);
    const pairs = (r.json<PairView[]>('pairs') ?? parsePairsFromText(r.body)).filter((p) => p.verdict === undefined);
    const verdicts: Judged[] = [];
    for (const p of pairs) {
      const url = r.str(`urls.${p.source_id}`);
      let judged = judge(env.scenario, p, url);
      // The passages do not show the evidence: read more of the stored text around the statement.
      if (judged.passage && url && !p.passages.some((x) => normaliseForMatch(x).includes(normaliseForMatch(judged.passage!)))) {
        const [more] = yield* calls(mcp('fetch_source', { run_id: task.runId, url, focus: p.statement }));
        if (more!.isError || !normaliseForMatch(parseReply(more!.text).body).includes(normaliseForMatch(judged.passage))) {
          judged = { pair_id: p.pair_id, verdict: 'UNSUPPORTED', note: `the stored text of ${p.source_id} does not say this` };
        }
      }
      verdicts.push(judged);
    }
    if (verdicts.length) {
      const [rec] = yield* calls(mcp('record_audit', { run_id: task.runId, verdicts }));
      if (rec!.isError) return `record_audit refused: ${rec!.text}`;
      const c = parseReply(rec!.text);
      counts = ['supported', 'partial', 'unsupported', 'unaudited'].map((k) => `${k}: ${c.num(`counts.${k}`) ?? 0}`).join('\n');
    }
    for (const v of verdicts) if (v.verdict !== 'SUPPORTED') notSupported.push(`not supported: ${v.pair_id} | ${v.verdict} | ${v.note ?? ''}`);
    if (counts === '') counts = `unaudited: ${r.num('unaudited') ?? 0}`;
    offset = r.num('next_offset');
  }
  return [`pairs judged: ${counts}`, ...notSupported].join('\n');
}

/** The text rendering lists pairs inside the untrusted block: `[P…] line n · S1 · verdict`, statement, passages. */
function parsePairsFromText(body: string): PairView[] {
  const out: PairView[] = [];
  let cur: PairView | undefined;
  for (const line of body.split('\n')) {
    const head = /^\[(P[0-9a-f]+)\] line \d+ · (S\d+) · (\S+)$/.exec(line);
    if (head) {
      cur = { pair_id: head[1]!, source_id: head[2]!, statement: '', passages: [], ...(head[3] !== 'unaudited' ? { verdict: head[3]! } : {}) };
      out.push(cur);
    } else if (cur && line.startsWith('statement: ')) cur.statement = line.slice('statement: '.length);
    else if (cur && line.startsWith('passage: ')) cur.passages.push(line.slice('passage: '.length));
  }
  return out;
}

function judge(scenario: Scenario, p: PairView, url: string | undefined): Judged {
  const facts: ScenarioFact[] = (url ? pageFor(scenario, url)?.facts : undefined) ?? [];
  if (facts.length === 0) return { pair_id: p.pair_id, verdict: 'UNSUPPORTED', note: `${p.source_id} is not a page this run read` };
  const statement = normaliseForMatch(p.statement);
  // A statement that quotes a fact of this page.
  const quoted = facts.find((f) => statement.includes(normaliseForMatch(f.quote)));
  if (quoted) return { pair_id: p.pair_id, verdict: 'SUPPORTED', passage: quoted.quote };
  // A statement made of answer clauses: each clause needs a fact of this page on its topic.
  const clauses = scenario.answer.flat().filter((c) => statement.includes(normaliseForMatch(c.text.replace(/^[,;:\s]*(?:and\s+)?/, ''))));
  if (clauses.length === 0) return { pair_id: p.pair_id, verdict: 'UNSUPPORTED', note: `nothing in ${p.source_id} says this` };
  // A clause is held by this page when a fact of the page is on its topic; the passage is the clause's evidence.
  const evidence = (c: AnswerClause) => (facts.some((f) => f.topics.some((t) => c.topics.includes(t))) ? facts.find((f) => f.quote === c.evidence) ?? facts.find((f) => f.topics.some((t) => c.topics.includes(t))) : undefined);
  const held = clauses.filter((c) => evidence(c));
  const missing = clauses.filter((c) => !evidence(c));
  if (held.length === 0) return { pair_id: p.pair_id, verdict: 'UNSUPPORTED', note: `${p.source_id} does not say this` };
  const passage = evidence(held[0]!)!.quote;
  if (missing.length === 0) return { pair_id: p.pair_id, verdict: 'SUPPORTED', passage };
  const rest = missing.map((c) => c.text.replace(/^[,;:\s]*(?:and\s+)?/, '')).join('; ');
  return { pair_id: p.pair_id, verdict: 'PARTIAL', passage, note: `${p.source_id} does not support: ${rest}` };
}
