// The scripted orchestrator: commands/deep-research.md as a program. It plans nothing itself (the brief,
// the page facts and the critic's blind spots come from the scenario) and decides nothing the server
// decides: dry-run refusals reshape the brief, `resumed` and thread_status pick the threads to send
// investigators to, record_critique's `stop`/`next_target` drive the critic loop, and verify_report's
// problems drive the fixes. It tests plumbing and protocol, not judgement.
import * as path from 'node:path';
import { parseCompletion, type CompletionView } from './documents.js';
import { investigatorPrompt } from './investigator.js';
import { normaliseForMatch, parseReply, unfenced } from './reply.js';
import { auditorPrompt } from './auditor.js';
import { answerText, pageFor, type BriefThread, type Depth, type Scenario, type Variation } from './scenario.js';
import { calls, callsSaying, mcp, read, write, type Call, type CallResult, type HostInfo, type Observation, type Policy, type Step } from './types.js';
import { plural } from '../../src/plural.js';

export interface OrchestratorEnv {
  scenario: Scenario;
  variation?: Variation;
  /** The user asked for a fresh run of the same question (`new: true`), as the demo does. */
  newRun?: boolean;
}

export interface Request {
  question: string;
  depth?: Depth;
}

/** `Request: "<question>" [depth]`, as the command expands $ARGUMENTS. */
export function parseRequest(commandText: string): Request | undefined {
  const m = /^Request: "([^"]+)"(?:\s+(quick|standard|deep))?\s*$/m.exec(commandText);
  if (!m) return undefined;
  return m[2] ? { question: m[1]!, depth: m[2] as Depth } : { question: m[1]! };
}

interface InvestigatorReport {
  thread: string;
  path?: string;
  reason?: string;
  degraded: boolean;
  error?: string;
}

function parseInvestigatorReports(text: string): InvestigatorReport[] {
  const out: InvestigatorReport[] = [];
  let cur: InvestigatorReport | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const m = /^(thread|path|convergence_reason|degraded|error): (.*)$/.exec(line);
    if (!m) continue;
    if (m[1] === 'thread') {
      cur = { thread: m[2]!, degraded: false };
      out.push(cur);
    } else if (cur) {
      if (m[1] === 'path') cur.path = m[2]!;
      if (m[1] === 'convergence_reason') cur.reason = m[2]!;
      if (m[1] === 'degraded') cur.degraded = m[2] === 'true';
      if (m[1] === 'error') cur.error = m[2]!;
    }
  }
  return out;
}

interface Gap {
  kind: string;
  description: string;
  query: string;
  priority: number;
  material: boolean;
  unanswerable?: boolean;
  /** The sub-question the gap is about; a critic thread is opened on it. */
  question?: string;
}

export function* orchestrator(commandText: string, host: HostInfo, env: OrchestratorEnv): Policy {
  const { scenario } = env;
  const req = parseRequest(commandText);
  if (!req) return 'No question found in the request. Usage: /deep-research "<question>" [quick|standard|deep]';
  if (req.question !== scenario.question) return `This scripted replay only knows the question "${scenario.question}".`;
  const procedurePath = /(\S*\/commands\/deep-research-investigate\.md)/.exec(commandText)?.[1] ?? 'commands/deep-research-investigate.md';
  const depth = req.depth ?? scenario.depth;
  const notes: string[] = [];
  let degraded = false;

  // 3. Show the cost: a dry run, reshaping the brief when it is refused.
  let threads: BriefThread[] = [...scenario.brief.threads];
  let dry: CallResult | undefined;
  for (let attempt = 0; attempt < 3; attempt++) {
    [dry] = yield* calls(mcp('start_run', { question: req.question, depth, brief: { ...scenario.brief, threads }, dry_run: true }));
    if (!dry!.isError) break;
    const max = /at most (\d+) threads/.exec(dry!.text);
    if (!max) return `start_run refused the brief: ${dry!.text}`;
    // Keep the counter-evidence thread (last), drop from the middle.
    const n = Number(max[1]);
    threads = n <= 1 ? threads.slice(-1) : [...threads.slice(0, n - 1), threads.at(-1)!];
  }
  if (!dry || dry.isError) return `start_run kept refusing the brief: ${dry?.text ?? ''}`;
  let d = parseReply(dry.text);
  // A warning that a subject or a phase would get no round revises the brief once, then the dry run repeats.
  const revised = reviseForWarnings(threads, d.list('warnings'));
  if (revised) {
    threads = revised;
    const [again] = yield* calls(mcp('start_run', { question: req.question, depth, brief: { ...scenario.brief, threads }, dry_run: true }));
    if (again!.isError) return `start_run refused the revised brief: ${again!.text}`;
    d = parseReply(again!.text);
  }
  const warnings = d.list('warnings');
  const cost =
    `Plan: ${d.list('threads').join('; ')}. Budgets: ${d.num('budgets.rounds_per_thread')} rounds per thread, ${d.num('budgets.results_per_round')} results per round, ${d.num('budgets.critic_rounds')} critic rounds; at most ${d.num('max_fetches')} fetches.` +
    (warnings.length ? ` Plan warnings: ${warnings.join(' ')}` : '');

  // 4. Start (or resume) the run.
  const [startRes] = yield* callsSaying(cost, mcp('start_run', { question: req.question, depth, brief: { ...scenario.brief, threads }, ...(env.newRun ? { new: true } : {}) }));
  if (startRes!.isError) return `start_run refused: ${startRes!.text}`;
  const s = parseReply(startRes!.text);
  const runId = s.str('run_id')!;
  const reportPath = s.str('report_path')!;
  const reportAbs = path.isAbsolute(reportPath) ? reportPath : path.join(host.cwd, reportPath);
  // Every path in a reply has one base: the working directory, unless it is absolute.
  const fromCwd = (p: string) => (path.isAbsolute(p) ? p : path.join(host.cwd, p));
  const runFolder = fromCwd(s.str('run_dir') ?? path.dirname(reportPath));
  const perRound = s.num('budgets.results_per_round') ?? 3;
  const allThreads = s.list('threads');
  const briefNames = new Set(scenario.brief.threads.map((t) => t.name));
  const completion = new Map<string, string>();

  let pending = allThreads;
  if (s.bool('resumed') === true) {
    const st = yield* calls(...allThreads.map((t) => mcp('thread_status', { run_id: runId, thread: t })));
    pending = allThreads.filter((_, i) => {
      const r = parseReply(st[i]!.text, st[i]!.isError);
      return !r.isError && r.bool('converged') !== true && r.bool('completed') !== true;
    });
  }

  // 5. Investigate: one investigator per unfinished thread, all in one message.
  const dispatch = function* (names: string[], definitions: Map<string, unknown> = new Map()): Generator<Step, void, Observation> {
    if (names.length === 0) return;
    const agentCalls: Call[] = names.map((name) => ({
      tool: 'agent',
      kind: 'investigator',
      description: `Investigate ${name}`.slice(0, 60),
      prompt: investigatorPrompt({
        thread: name,
        runId,
        procedurePath,
        runFolder,
        resultsPerRound: perRound,
        ...(definitions.has(name) ? { definition: definitions.get(name) as never } : {}),
      }),
    }));
    const reports = yield* runAgents(agentCalls);
    for (const text of reports) {
      for (const r of parseInvestigatorReports(text)) {
        if (!names.includes(r.thread)) continue;
        if (r.path) completion.set(r.thread, r.path);
        if (r.degraded) degraded = true;
        if (r.error) notes.push(`Investigator of "${r.thread}" reported: ${r.error}`);
      }
    }
  };
  yield* dispatch(pending);

  // A thread neither converged nor completed gets one more investigator, then is ended by hand.
  const unfinished = function* (names: string[]): Generator<Step, string[], Observation> {
    const st = yield* calls(...names.map((t) => mcp('thread_status', { run_id: runId, thread: t })));
    return names.filter((_, i) => {
      const r = parseReply(st[i]!.text, st[i]!.isError);
      if (r.bool('degraded')) degraded = true;
      return r.bool('converged') !== true && r.bool('completed') !== true;
    });
  };
  const settle = function* (names: string[], definitions?: Map<string, unknown>): Generator<Step, void, Observation> {
    let left = yield* unfinished(names);
    if (left.length) {
      yield* dispatch(left, definitions);
      left = yield* unfinished(left);
    }
    for (const t of left) notes.push(`Thread "${t}" did not finish after two investigators and was ended early.`);
    // Every thread needs its completion report; complete_thread is idempotent and names the file.
    const missing = names.filter((t) => !completion.has(t) || left.includes(t));
    if (missing.length) {
      const done = yield* calls(...missing.map((t) => mcp('complete_thread', { run_id: runId, thread: t })));
      done.forEach((r, i) => {
        if (!r.isError) completion.set(missing[i]!, parseReply(r.text).str('path')!);
      });
    }
  };
  yield* settle(allThreads);

  // 6. Critique until record_critique says stop.
  let openQuestions: string[] = [];
  let views: CompletionView[] = [];
  let criticRounds = 0;
  let cleanSignoffs = 0;
  for (let guard = 0; guard < 8; guard++) {
    const names = [...completion.keys()];
    const files = yield* calls(...names.map((t) => read(fromCwd(completion.get(t)!))));
    views = files.filter((f) => !f.isError).map((f) => parseCompletion(f.text));
    const gaps = deriveGaps(views, briefNames, scenario);
    const material = gaps.filter((g) => g.material && !g.unanswerable);
    const [cr] = yield* calls(
      mcp('record_critique', {
        run_id: runId,
        gaps: gaps.map(({ question: _q, ...g }) => g),
        signoff: material.length === 0,
      }),
    );
    if (cr!.isError) {
      notes.push(`record_critique refused: ${cr!.text}`);
      break;
    }
    const c = parseReply(cr!.text);
    criticRounds = c.num('critic_round') ?? criticRounds + 1;
    cleanSignoffs = c.num('clean_signoffs') ?? 0;
    openQuestions = c.list('open_questions');
    if (c.bool('stop') === true) break;
    // The server's ready start for the critic thread; subjects are the planner's to add (the reply says
    // so): those of the planned thread whose sub-question the gap reopens, so check_drift has them to find.
    const name = c.str('next_definition.name');
    const subQuestions = c.json<{ id: string; question: string }[]>('next_definition.sub_questions');
    if (!name || !subQuestions?.length) continue;
    const asked = new Set(subQuestions.map((q) => q.question));
    const subjects = [...new Set(threads.filter((t) => t.sub_questions.some((q) => asked.has(q.question))).flatMap((t) => t.subjects))];
    const definition = { sub_questions: subQuestions, subjects };
    const [opened] = yield* calls(mcp('start_thread', { run_id: runId, thread: name, definition }));
    if (opened!.isError) {
      notes.push(`The critic thread "${name}" could not be opened: ${opened!.text}`);
      break;
    }
    yield* dispatch([name], new Map([[name, definition]]));
    yield* settle([name], new Map([[name, definition]]));
  }

  // 7. Synthesize from stored sources only: ids and text come from fetch_source (answered from the store).
  const cited = new Map<string, { thread: string; title: string }>();
  for (const v of views) for (const src of v.sources) if (src.value !== 'LOW' && !cited.has(src.url)) cited.set(src.url, { thread: v.thread, title: src.title });
  const urls = [...cited.keys()];
  const stored = urls.length ? yield* calls(...urls.map((url) => mcp('fetch_source', { run_id: runId, url }))) : [];
  const evidence: Evidence[] = [];
  stored.forEach((res, i) => {
    if (res.isError) return;
    const r = parseReply(res.text);
    if (r.bool('degraded')) degraded = true;
    const url = urls[i]!;
    const text = normaliseForMatch(r.body);
    const facts = (pageFor(scenario, url)?.facts ?? []).filter((f) => text.includes(normaliseForMatch(f.quote)));
    if (facts.length === 0) return;
    evidence.push({ id: r.str('source_id')!, title: unfenced(r.str('title') ?? url), url: r.str('url') ?? url, thread: cited.get(url)!.thread, facts });
  });

  const audit: AuditNote = { split: false, changes: [] };
  const ignoreAudit = env.variation?.ignoreAudit === true;
  const compose = () =>
    composeReport({
      scenario,
      evidence,
      views,
      openQuestions,
      notes,
      criticRounds,
      cleanSignoffs,
      degraded,
      fabricate: env.variation?.fabricateCitation === true,
      audit,
    });
  const writeReport = function* (text: string): Generator<Step, boolean, Observation> {
    const [w] = yield* calls(write(reportAbs, text));
    if (!w!.isError) return true;
    // The host refuses to overwrite a file it has not seen (a report left by an earlier session): read it first.
    yield* calls(read(reportAbs));
    const [again] = yield* calls(write(reportAbs, text));
    return !again!.isError;
  };
  let content = compose();
  if (!(yield* writeReport(content))) return `Could not write the report at ${reportPath}.`;

  // 8. Audit: a fresh subagent judges every claim–source pair; the writer fixes what is not SUPPORTED, the
  // auditor judges the changed pairs, and verify_report runs until it passes.
  const runAuditor = function* (): Generator<Step, AuditorReport, Observation> {
    const [text] = yield* runAgents([{ tool: 'agent', kind: 'general', description: 'Audit claim-source pairs', prompt: auditorPrompt(runId) }]);
    return parseAuditorReport(text ?? '');
  };
  const first = yield* runAuditor();
  audit.firstPass = first;
  if (!ignoreAudit && first.notSupported.some((n) => n.verdict === 'PARTIAL')) {
    audit.split = true;
    audit.changes.push("the answer's compound sentence was split so that each part cites the source that says it");
  }
  content = compose();
  if (!(yield* writeReport(content))) return `Could not rewrite the report at ${reportPath}.`;
  if (audit.split) yield* runAuditor();

  let verified = false;
  let lastProblems = '';
  let lastBasis: Basis | undefined;
  for (let attempt = 0; attempt < 5; attempt++) {
    const [v] = yield* calls(mcp('verify_report', { run_id: runId }));
    const r = parseReply(v!.text, v!.isError);
    const [primary, twoOrigins, neither] = ['primary', 'two_origins', 'neither'].map((k) => r.num(`basis.${k}`));
    if (primary !== undefined && twoOrigins !== undefined && neither !== undefined) lastBasis = { primary, two_origins: twoOrigins, neither };
    if (r.bool('ok') === true) {
      verified = true;
      break;
    }
    const problems = r.json<{ line: number; message: string }[]>('problems') ?? [];
    lastProblems = problems.map((p) => `line ${p.line}: ${p.message}`).join('; ');
    const unjudged = problems.some((p) => /^pair P[0-9a-f]+ .* has no verdict/.test(p.message));
    // A pair the audit did not find SUPPORTED goes with its line; with ignoreAudit the writer leaves it.
    const fixable = problems.filter((p) => !/^pair P[0-9a-f]+ /.test(p.message) || (!ignoreAudit && / is (PARTIAL|UNSUPPORTED): /.test(p.message)));
    const fixed = removeProblemLines(content, fixable);
    if (fixed !== content) {
      content = fixed;
      const [again] = yield* calls(write(reportAbs, content));
      if (again!.isError) break;
      continue;
    }
    if (unjudged && attempt < 3) {
      yield* runAuditor();
      continue;
    }
    break;
  }
  // Then Methods gets the cited facts by basis, as the last verify_report counted them (Methods is not audited).
  if (verified && lastBasis) {
    const withBasis = content.replace(REPLAY_NOTE, `${basisLine(lastBasis)}\n${REPLAY_NOTE}`);
    if (withBasis !== content) yield* writeReport(withBasis);
  }
  return [
    `Report: ${reportPath} (verify_report ${verified ? 'ok' : `still failing: ${lastProblems}`}).`,
    `Run: ${runId}.`,
    `Answer: ${answerText(scenario)}`,
    openQuestions.length ? `Open questions: ${openQuestions.join('; ')}` : 'Open questions: none.',
  ].join('\n');
}

interface AuditorReport {
  counts: { supported: number; partial: number; unsupported: number; unaudited: number };
  notSupported: { pairId: string; verdict: string; note: string }[];
}

/**
 * What the auditor reported: the last counts record_audit gave, and each pair it did not find SUPPORTED.
 * Claude Code hands a subagent's report back with every line indented, so lines are matched trimmed.
 */
function parseAuditorReport(text: string): AuditorReport {
  const n = (k: string) => Number(new RegExp(`^\\s*(?:pairs judged: )?${k}: (\\d+)\\s*$`, 'm').exec(text)?.[1] ?? 0);
  const notSupported = [...text.matchAll(/^\s*not supported: (P[0-9a-f]+) \| (\w+) \| (.*?)\s*$/gm)].map((m) => ({ pairId: m[1]!, verdict: m[2]!, note: m[3]! }));
  return { counts: { supported: n('supported'), partial: n('partial'), unsupported: n('unsupported'), unaudited: n('unaudited') }, notSupported };
}

interface AuditNote {
  /** Cite each clause of the answer right after itself, instead of once at the end of its sentence. */
  split: boolean;
  firstPass?: AuditorReport;
  changes: string[];
}

/**
 * Runs subagents sent in one message and returns each one's final report. A host may start them in the
 * background despite `run_in_background: false`; then the report arrives in a task notification that wakes
 * the conversation, matched to its call by the description. Only those are waited for.
 */
function* runAgents(agentCalls: Call[]): Generator<Step, string[], Observation> {
  const results = yield* calls(...agentCalls);
  const reports = results.map((r) => (r.isError ? '' : r.text));
  const pending = new Map<number, string>();
  results.forEach((r, i) => {
    const call = agentCalls[i]!;
    if (call.tool === 'agent' && !r.isError && BACKGROUND.test(r.text)) pending.set(i, call.description);
  });
  for (let guard = 0; pending.size > 0 && guard < 20; guard++) {
    const woke = yield { kind: 'wait', say: `Waiting for ${plural(pending.size, 'subagent')}: ${[...pending.values()].join(', ')}.` };
    if (typeof woke !== 'string') continue;
    for (const n of woke.matchAll(/<task-notification>([\s\S]*?)<\/task-notification>/g)) {
      const block = n[1]!;
      const result = /<result>([\s\S]*?)<\/result>/.exec(block)?.[1] ?? '';
      for (const [i, description] of pending) {
        if (!block.includes(`"${description}"`)) continue;
        reports[i] = result;
        pending.delete(i);
        break;
      }
    }
  }
  return reports;
}

const BACKGROUND = /Async agent launched|working in the background/i;

interface Evidence {
  id: string;
  title: string;
  url: string;
  thread: string;
  facts: { fact: string; quote: string; topics: string[] }[];
}

function deriveGaps(views: CompletionView[], briefNames: Set<string>, scenario: Scenario): Gap[] {
  const answered = new Set<string>();
  const triedByCritic = new Set<string>();
  for (const v of views) {
    for (const q of v.subQuestions) {
      if (q.status === 'ANSWERED') answered.add(q.question);
      if (!briefNames.has(v.thread)) triedByCritic.add(q.question);
    }
  }
  const gaps: Gap[] = [];
  const seen = new Set<string>();
  for (const v of views) {
    for (const q of v.subQuestions) {
      if (q.status === 'ANSWERED' || answered.has(q.question) || seen.has(q.question)) continue;
      seen.add(q.question);
      const unanswerable = triedByCritic.has(q.question);
      gaps.push({
        kind: /counter/i.test(v.thread) ? 'missing-counterarg' : 'unverified-claim',
        // The open sub-question itself: record_critique turns the description into the next thread's sub-question.
        description: q.question,
        query: q.question,
        priority: 10 - gaps.length,
        material: !unanswerable,
        ...(unanswerable ? { unanswerable: true } : {}),
        question: q.question,
      });
    }
  }
  for (const o of scenario.openQuestions) gaps.push({ ...o, priority: 1, material: false, unanswerable: true });
  return gaps;
}

interface ComposeInput {
  scenario: Scenario;
  evidence: Evidence[];
  views: CompletionView[];
  openQuestions: string[];
  notes: string[];
  criticRounds: number;
  cleanSignoffs: number;
  degraded: boolean;
  fabricate: boolean;
  audit: AuditNote;
}

const REPLAY_NOTE = 'This report was written by a scripted replay of the deep-research protocol, not by a language model.';

function basisLine(b: Basis): string {
  return `Cited facts by basis: ${b.primary} rest on a primary source, ${b.two_origins} on two sites, ${b.neither} on one secondary site only.`;
}

interface Basis {
  primary: number;
  two_origins: number;
  neither: number;
}

function composeReport(x: ComposeInput): string {
  const usable = x.evidence.filter((e) => e.facts.length > 0);
  const citedIds = new Set<string>();
  const cite = (ids: string[]) => {
    ids.forEach((id) => citedIds.add(id));
    return `[${ids.join(', ')}]`;
  };
  const lines: string[] = [`# ${x.scenario.question}`, ''];
  const idsFor = (topics: string[]) => usable.filter((e) => e.facts.some((f) => f.topics.some((t) => topics.includes(t)))).map((e) => e.id);
  const sentences = x.scenario.answer.map((clauses) => {
    if (x.audit.split) return `${clauses.map((c) => (idsFor(c.topics).length ? `${c.text} ${cite(idsFor(c.topics))}` : c.text)).join('')}.`;
    const ids = [...new Set(clauses.flatMap((c) => idsFor(c.topics)))];
    return `${clauses.map((c) => c.text).join('')}${ids.length ? ` ${cite(ids)}` : ''}.`;
  });
  lines.push(sentences.join(' '), '');

  const threadOrder = x.views.map((v) => v.thread);
  for (const thread of threadOrder) {
    const here = usable.filter((e) => e.thread === thread);
    if (here.length === 0) continue;
    lines.push(`## ${thread.replace(/^Critic \d+: /, 'Follow-up: ')}`, '');
    for (const e of here) for (const f of e.facts) lines.push(`- ${f.fact.replace(/\.$/, '')}: "${f.quote}" ${cite([e.id])}`);
    if (x.fabricate && thread === threadOrder[0]) {
      const fake = `S${Math.max(0, ...x.evidence.map((e) => Number(e.id.slice(1)))) + 40}`;
      lines.push(`- A 2023 meta-analysis of 40 trials found that output rose by 20% on average ${cite([fake])}`);
    }
    lines.push('');
  }

  const rounds = x.views.reduce((n, v) => n + v.roundsExecuted, 0);
  const read_ = new Set(x.views.flatMap((v) => v.sources.map((s) => s.url))).size;
  lines.push('## Methods', '');
  lines.push(
    `Threads: ${x.views.length} (${x.views.filter((v) => v.thread.startsWith('Critic ')).length} opened by the critic). Rounds: ${rounds}. Sources read: ${read_}, of which ${usable.length} are cited.`,
    '',
  );
  for (const v of x.views) lines.push(`- ${v.thread}: ${plural(v.roundsExecuted, 'round')}, stopped with ${v.convergenceReason}.`);
  lines.push('');
  lines.push(`Critique: ${plural(x.criticRounds, 'round')}; ${plural(x.cleanSignoffs, 'consecutive clean sign-off')} at the end.`);
  const fp = x.audit.firstPass;
  if (fp) {
    const total = fp.counts.supported + fp.counts.partial + fp.counts.unsupported + fp.counts.unaudited;
    const changed = x.audit.changes.length ? `changed: ${x.audit.changes.join('; ')}` : 'nothing was changed';
    lines.push(`Audit: a fresh reader judged ${total} claim-source pairs against the stored sources; ${fp.counts.supported} were SUPPORTED on the first pass; ${changed}.`);
  }
  if (x.degraded) lines.push('Degraded: yes — the answer rests on partial information.');
  for (const n of x.notes) lines.push(`Note: ${sanitise(n)}`);
  lines.push(REPLAY_NOTE);
  lines.push('');
  if (x.openQuestions.length) {
    lines.push('## Open Questions', '');
    for (const q of x.openQuestions) lines.push(`- ${q}`);
    lines.push('');
  }
  lines.push('## Sources', '');
  const byId = new Map(x.evidence.map((e) => [e.id, e]));
  const ids = [...citedIds].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
  for (const id of ids) {
    const e = byId.get(id);
    if (e) lines.push(`- [${id}](sources/${id}.md) ${e.title} — ${e.url}`);
    else lines.push(`- [${id}](sources/${id}.md) Meta-analysis of four-day week trials — https://example.org/four-day-week-meta-analysis`);
  }
  return `${lines.join('\n')}\n`;
}

/** Removes every line verify_report named and says in Methods which claims went and why. */
function removeProblemLines(content: string, problems: { line: number; message: string }[]): string {
  const lines = content.split('\n');
  const drop = new Set(problems.filter((p) => p.line >= 1 && p.line <= lines.length).map((p) => p.line));
  if (drop.size === 0) return content;
  const removed = [...drop].sort((a, b) => a - b).map((n) => ({ n, text: lines[n - 1]!, why: problems.find((p) => p.line === n)!.message }));
  const kept = lines.filter((_, i) => !drop.has(i + 1));
  const methods = kept.findIndex((l) => l === '## Methods');
  const end = methods < 0 ? -1 : kept.findIndex((l, i) => i > methods && l.startsWith('## '));
  const note = removed.map((r) => {
    const listed = /^- \[(S\d+)\](?:\(sources\/S\d+\.md\))? /.exec(r.text);
    return listed ? `Removed from Sources on verification: ${listed[1]} (${sanitise(r.why)})` : `Removed on verification: ${sanitise(r.text.replace(/^- /, ''))} (${sanitise(r.why)})`;
  });
  if (end > 0) kept.splice(end - 1, 0, ...note);
  return kept.join('\n');
}

/** Text for Methods that the verifier must not read as a citation, a quotation or a URL. */
function sanitise(s: string): string {
  return s
    .replace(/\[(S\d+(?:,\s*S\d+)*)\]/g, '($1)')
    .replace(/https?:\/\/\S+/g, '(link removed)')
    .replace(/"/g, '')
    .trim();
}

/**
 * The orchestrator's answer to plan warnings (commands/deep-research.md step 3): phases that get no round
 * leave the thread's strategy. A subject warning is shown to the user and kept: merging or moving subjects
 * is a judgement the scenario does not script, and dropping one would lose its round. Undefined when no
 * warning asks for a change.
 */
export function reviseForWarnings(threads: BriefThread[], warnings: string[]): BriefThread[] | undefined {
  let changed = false;
  const out = threads.map((t) => {
    let next = t;
    for (const w of warnings) {
      if (!w.startsWith(`thread "${t.name}"`)) continue;
      const skipped = /: ([A-Z, ]+) gets? no round/.exec(w);
      if (skipped) {
        const drop = skipped[1]!.split(', ');
        const order = next.source_strategy ?? ['SURVEY', 'EXTRACT', 'DIVERSIFY', 'VERIFY'];
        next = { ...next, source_strategy: order.filter((p) => !drop.includes(p)) };
        changed = true;
      }
    }
    return next;
  });
  return changed ? out : undefined;
}
