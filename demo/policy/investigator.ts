// The scripted investigator: commands/deep-research-investigate.md as a program. Every branch below is
// taken on what a tool answered (its text), never on a precomputed sequence: start_thread/thread_status
// decide where the thread stands, fetch_source whether a page can be read, check_drift whether to extract,
// record_round whether to continue, reformulate, advance or stop.
import { parseBrief, type BriefThreadView } from './documents.js';
import { buildQuery, keyTerms } from './query.js';
import { normaliseForMatch, parseReply, unfenced, type Reply } from './reply.js';
import { pageFor, search, topicOf, type Scenario } from './scenario.js';
import { calls, mcp, read, type CallResult, type Policy } from './types.js';
import { plural } from '../../src/plural.js';
import { namesSubject } from '../../src/engine/key-findings.js';

export interface InvestigatorTask {
  thread: string;
  runId: string;
  procedurePath: string;
  runFolder: string;
  resultsPerRound?: number;
  definition?: { sub_questions: { id: string; question: string }[]; subjects: string[]; source_strategy?: string[] };
}

const PROMPT_RE = /Investigate thread "(.+?)" of deep-research run (\S+)\. Read (\S+) and follow it\. Run folder: (\S+?)\.?\s+Results per round: (\d+)\./s;

export function investigatorPrompt(t: Required<Omit<InvestigatorTask, 'definition'>> & Pick<InvestigatorTask, 'definition'>): string {
  const def = t.definition ? ` Definition (critic thread): ${JSON.stringify(t.definition)}` : '';
  return (
    `Investigate thread "${t.thread}" of deep-research run ${t.runId}. Read ${t.procedurePath} and follow it. ` +
    `Run folder: ${t.runFolder} Results per round: ${t.resultsPerRound}.${def} ` +
    'Report back the completion report path, the convergence reason, and the key findings with their source ids.'
  );
}

export function parseInvestigatorPrompt(prompt: string): InvestigatorTask | undefined {
  const m = PROMPT_RE.exec(prompt);
  if (!m) return undefined;
  const task: InvestigatorTask = { thread: m[1]!, runId: m[2]!, procedurePath: m[3]!, runFolder: m[4]!, resultsPerRound: Number(m[5]) };
  const def = /Definition \(critic thread\): (\{.*\})\s+Report back/s.exec(prompt);
  if (def) task.definition = JSON.parse(def[1]!) as InvestigatorTask['definition'];
  return task;
}

interface Directives {
  round: number;
  phase: string;
  forcedSubject?: string;
  reformulateFrom?: string;
  escapeStrategy?: string;
  hints: string[];
  fetchPrompt: string;
}

function directives(r: Reply): Directives | undefined {
  const round = r.num('next.round');
  if (round === undefined) return undefined;
  const d: Directives = { round, phase: r.str('next.phase') ?? 'SURVEY', hints: r.list('next.query_hints'), fetchPrompt: r.str('next.fetch_prompt') ?? '' };
  const forced = r.str('next.forced_subject');
  if (forced) d.forcedSubject = forced;
  const from = r.str('next.reformulate_from');
  if (from) d.reformulateFrom = from;
  const escape = r.str('next.escape_strategy') ?? r.str('escape_strategy');
  if (escape) d.escapeStrategy = escape;
  return d;
}

/** "name: 2 rounds, COVERED" → rounds per subject, as start_thread and thread_status list them. */
function subjectRounds(r: Reply): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of r.list('subjects')) {
    const m = /^(.*): (\d+) rounds?, [A-Z]+$/.exec(line);
    if (m) out.set(m[1]!, Number(m[2]));
  }
  return out;
}

/** "SQ-1 ANSWERED PLAUSIBLE" → status per sub-question id. */
function subQuestionStatus(r: Reply): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of r.list('sub_questions')) {
    const [id, status] = line.split(' ');
    if (id && status) out.set(id, status);
  }
  return out;
}

export interface InvestigatorEnv {
  scenario: Scenario;
  /** Base URL of the fixture web the scenario's pages are served from. */
  baseUrl: string;
}

export function* investigator(task: InvestigatorTask, env: InvestigatorEnv): Policy {
  const { scenario } = env;
  const startArgs: Record<string, unknown> = { run_id: task.runId, thread: task.thread };
  if (task.definition) startArgs.definition = task.definition;
  const [procedure, startRes, briefRes] = yield* calls(read(task.procedurePath), mcp('start_thread', startArgs), read(`${task.runFolder}/brief.md`));
  if (procedure!.isError) return `thread: ${task.thread}\nerror: could not read the procedure at ${task.procedurePath}: ${procedure!.text.slice(0, 200)}`;
  if (startRes!.isError) return `thread: ${task.thread}\nerror: start_thread refused: ${startRes!.text}`;

  const brief = briefRes!.isError ? undefined : parseBrief(briefRes!.text);
  const fromBrief = brief?.threads.find((t) => t.name === task.thread);
  const view: BriefThreadView = task.definition
    ? { name: task.thread, critic: true, subQuestions: task.definition.sub_questions, subjects: task.definition.subjects }
    : (fromBrief ?? { name: task.thread, critic: false, subQuestions: [], subjects: [] });
  const critic = view.critic || !scenario.brief.threads.some((t) => t.name === task.thread);
  const include = brief?.include ?? scenario.brief.disambiguation?.include ?? [];
  const perRound = task.resultsPerRound ?? brief?.resultsPerRound ?? 3;

  const started = parseReply(startRes!.text);
  const rounds = subjectRounds(started);
  const status = subQuestionStatus(started);
  const answered = new Set([...status].filter(([, s]) => s === 'ANSWERED').map(([id]) => id));
  let next = directives(started);
  // Per page, the text this thread was shown: what a model keeps in its context between rounds.
  const shownBefore = new Map<string, string>();
  let degraded = started.bool('degraded') === true;
  const findings: string[] = [];
  const notes: string[] = [];
  const budget = started.num('round_budget') ?? 10;
  let guard = budget + 1;

  while (next && started.bool('converged') !== true && guard-- > 0) {
    // SCOPE: the forced subject wins; otherwise the first subject without a round; the first open sub-question.
    const subject = next.forcedSubject ?? view.subjects.find((s) => (rounds.get(s) ?? 0) === 0);
    const open = view.subQuestions.filter((q) => !answered.has(q.id));
    const focusQuestion = pickQuestion(open, subject) ?? view.subQuestions[0];
    let query = buildQuery({
      include,
      phase: next.phase,
      hints: next.hints,
      ...(subject ? { subject } : {}),
      ...(focusQuestion ? { question: focusQuestion.question } : {}),
      ...(next.reformulateFrom ? { reformulateFrom: next.reformulateFrom } : {}),
      ...(next.escapeStrategy ? { escapeStrategy: next.escapeStrategy } : {}),
    });

    // SEARCH (offline: the scenario's search engine; WebSearch is never called). Nothing found → one reformulation.
    // Every URL the searches returned goes to record_round as search_results: the server's overlap input.
    const earlierQueries: string[] = [];
    let results = search(scenario, { name: task.thread, critic }, query, env.baseUrl);
    if (results.length === 0) {
      earlierQueries.push(query);
      query = buildQuery({ include, phase: next.phase, hints: [], reformulateFrom: query, escapeStrategy: 'query reformulation', ...(subject ? { subject } : {}) });
      results = search(scenario, { name: task.thread, critic }, query, env.baseUrl);
    }
    const urls = results.slice(0, perRound);

    // READ through fetch_source; a refused fetch is skipped and left out of urls_visited.
    const fetched = urls.length ? yield* calls(...urls.map((url) => mcp('fetch_source', { run_id: task.runId, url, thread: task.thread, focus: next!.fetchPrompt || query }))) : [];
    const read_: { url: string; reply: Reply }[] = [];
    const failed: string[] = [];
    fetched.forEach((res, i) => {
      if (res.isError) failed.push(urls[i]!);
      else {
        const reply = parseReply(res.text);
        if (reply.bool('degraded')) degraded = true;
        read_.push({ url: urls[i]!, reply });
      }
    });

    // DRIFT before extraction.
    const drift = read_.length
      ? yield* calls(...read_.map((r) => mcp('check_drift', { run_id: task.runId, thread: task.thread, source_id: r.reply.str('source_id') })))
      : ([] as CallResult[]);
    const facts: Record<string, unknown>[] = [];
    const drifted: string[] = [];
    for (const [i, r] of read_.entries()) {
      const d = parseReply(drift[i]!.text, drift[i]!.isError);
      const action = d.isError ? 'skip' : d.str('action');
      if (action === 'reformulate') {
        drifted.push(r.reply.str('source_id') ?? r.url);
        break;
      }
      if (action !== 'extract') {
        drifted.push(r.reply.str('source_id') ?? r.url);
        continue;
      }
      // EXTRACT: only facts whose quote is in the text fetch_source returned.
      const page = pageFor(scenario, r.url);
      // A reader keeps what it was shown: the server does not repeat a passage to the same thread.
      const text = normaliseForMatch(`${shownBefore.get(r.url) ?? ''}\n${r.reply.body || r.reply.text}`);
      shownBefore.set(r.url, text);
      for (const f of page?.facts ?? []) {
        if (!text.includes(normaliseForMatch(f.quote))) continue;
        const sqs = view.subQuestions.filter((q) => {
          const topic = topicOf(scenario, q.question);
          return topic !== undefined && f.topics.includes(topic);
        });
        facts.push({
          fact: f.fact,
          url: r.url,
          source_title: unfenced(r.reply.str('title') ?? ''),
          quote: f.quote,
          confidence: f.confidence,
          ...(sqs.length ? { sub_questions: sqs.map((q) => q.id) } : {}),
          ...(f.confirmsKnown ? { confirms_known: true } : {}),
        });
        findings.push(`${r.reply.str('source_id')}: ${f.fact}`);
      }
    }

    const supported = new Map<string, string>();
    for (const f of facts) {
      if (f.confidence === 'UNVERIFIED') continue;
      for (const id of (f.sub_questions as string[] | undefined) ?? []) if (!supported.has(id)) supported.set(id, f.fact as string);
    }
    const visited = read_.map((r) => r.url);
    const args: Record<string, unknown> = {
      run_id: task.runId,
      thread: task.thread,
      query,
      ...(earlierQueries.length ? { queries: earlierQueries } : {}),
      urls_visited: visited,
      search_results: results,
      facts,
      summary:
        `Round ${next.round} (${next.phase}): read ${plural(visited.length, 'page')}, extracted ${plural(facts.length, 'fact')}.` +
        (drifted.length ? ` Drifted, no facts taken: ${drifted.join(', ')}.` : '') +
        (failed.length ? ` Could not read: ${failed.length}.` : ''),
      ...(subject ? { targeted_subjects: [subject], subject_updates: [subjectUpdate(subject, facts)] } : {}),
      ...(supported.size
        ? { sub_question_updates: [...supported].map(([id, key_finding]) => ({ id, status: 'ANSWERED', key_finding })) }
        : {}),
    };
    const stillOpen = open.find((q) => !supported.has(q.id));
    if (stillOpen) args.next_focus = stillOpen.question;

    const [recorded] = yield* calls(mcp('record_round', args));
    if (recorded!.isError) {
      if (/converged|completed/i.test(recorded!.text)) break;
      notes.push(`record_round refused: ${recorded!.text}`);
      break;
    }
    const r = parseReply(recorded!.text);
    if (r.bool('degraded')) degraded = true;
    if (subject) rounds.set(subject, (rounds.get(subject) ?? 0) + 1);
    // The reply echoes what the server accepted for every sub-question.
    for (const q of r.json<{ id: string; status: string }[]>('sub_questions') ?? []) if (q.status === 'ANSWERED') answered.add(q.id);
    for (const w of r.list('warnings')) notes.push(`round ${r.num('round')}: ${w}`);
    if (r.str('action') === 'STOP' || r.bool('converged') === true) break;
    next = directives(r);
  }

  // FINISH: the server's view of what is still open becomes the gaps.
  const [st] = yield* calls(mcp('thread_status', { run_id: task.runId, thread: task.thread }));
  const final = parseReply(st!.text, st!.isError);
  const sqStatus = subQuestionStatus(final);
  const executed = final.num('rounds_completed') ?? 0;
  const reason = final.str('convergence_reason');
  const gaps = view.subQuestions
    .filter((q) => (sqStatus.get(q.id) ?? 'OPEN') !== 'ANSWERED')
    .map((q) => ({
      gap: `${q.id}: ${q.question}`,
      why_not_found: reason === 'PLATEAU_STOPPED' ? 'the searches kept returning the same pages' : 'no source read so far states it',
      rounds_attempted: executed,
      next_step: `search for: ${q.question}`,
    }));
  const [done] = yield* calls(mcp('complete_thread', { run_id: task.runId, thread: task.thread, gaps }));
  if (done!.isError) return `thread: ${task.thread}\nerror: complete_thread refused: ${done!.text}`;
  const c = parseReply(done!.text);
  return [
    `thread: ${task.thread}`,
    `path: ${c.str('path')}`,
    `convergence_reason: ${c.str('convergence_reason')}`,
    `rounds_executed: ${c.str('rounds_executed')}`,
    `degraded: ${degraded}`,
    'findings:',
    ...findings.map((f) => `- ${f}`),
    ...(notes.length ? ['notes:', ...notes.map((n) => `- ${n}`)] : []),
  ].join('\n');
}

/** The open sub-question that shares the most words with the subject, else the first open one. */
function pickQuestion(open: { id: string; question: string }[], subject: string | undefined) {
  if (!subject) return open[0];
  const s = keyTerms(subject);
  let best = open[0];
  let bestScore = -1;
  for (const q of open) {
    const k = keyTerms(q.question);
    const score = s.filter((w) => k.some((x) => x.startsWith(w.slice(0, 4)))).length;
    if (score > bestScore) {
      best = q;
      bestScore = score;
    }
  }
  return best;
}

/** A careful reader credits a subject only with the facts about it, and names one as the evidence. */
function subjectUpdate(subject: string, facts: Record<string, unknown>[]): { name: string; status: 'COVERED' | 'PARTIAL'; evidence?: string } {
  const about = facts.map((f) => f.fact as string).filter((text) => namesSubject(subject, text));
  return about.length > 0 ? { name: subject, status: 'COVERED', evidence: about[0]! } : { name: subject, status: 'PARTIAL' };
}
