// A scenario is the judgement a real model would bring, written down: the brief it would plan, what a
// reader would extract from each page, the search results a query would get, and what the critic would
// miss. The policy supplies the protocol; the scenario supplies the content. Offline there is no real web
// search: `search` below plays the search engine over the scenario's fixture pages.

export type Depth = 'quick' | 'standard' | 'deep';

export interface ScenarioFact {
  fact: string;
  /** Verbatim from the page; the policy only extracts a fact whose quote it finds in the text it read. */
  quote: string;
  /** Topic ids: a fact answers the sub-questions whose text the scenario maps to one of these. */
  topics: string[];
  confidence: 'VERIFIED' | 'PLAUSIBLE' | 'UNVERIFIED';
  confirmsKnown?: boolean;
}

export interface ScenarioPage {
  /** Path on the fixture web, e.g. "/iceland-trials.html". */
  path: string;
  /** Threads whose searches can surface the page; "critic" stands for any thread the critic opens. */
  threads: string[];
  /** Lower-case terms; a query containing one of them finds the page. `always` pages match any query. */
  keywords: string[];
  always?: boolean;
  /** The page is listed by search but not served (a dead link): fetch_source refuses it. */
  missing?: boolean;
  facts: ScenarioFact[];
}

export interface BriefThread {
  name: string;
  sub_questions: { id: string; question: string }[];
  subjects: string[];
  source_strategy?: string[];
  primary_origins?: string[];
}

export interface Scenario {
  question: string;
  depth: Depth;
  brief: {
    threads: BriefThread[];
    assumptions?: string[];
    disambiguation?: { include?: string[]; exclude?: string[] };
    known_facts?: { fact: string; confidence: 'HIGH' | 'MEDIUM' | 'LOW' }[];
    scope?: { regions?: string[]; period?: { from: number; to: number } };
  };
  /** Sub-question text → topic id. */
  topics: Record<string, string>;
  pages: ScenarioPage[];
  /**
   * The direct answer, as sentences of clauses. Each clause is what the sources of its topics say; the
   * first draft cites a sentence once, at its end (a compound sentence the audit finds PARTIAL), and the
   * fix cites each clause right after itself.
   */
  answer: AnswerClause[][];
  /** Gaps the critic always raises that no search can close: they become open questions. */
  openQuestions: { kind: 'modality' | 'unverified-claim' | 'unread-source' | 'missing-counterarg' | 'unresolved-contradiction'; description: string; query: string }[];
}

export interface AnswerClause {
  /** Verbatim as it reads in the report, joining punctuation included (", and …"). */
  text: string;
  topics: string[];
  /** The fact quote a reader would point to as the evidence for this clause. */
  evidence: string;
}

/** The answer as plain text, without citations. */
export function answerText(scenario: Scenario): string {
  return scenario.answer.map((sentence) => `${sentence.map((c) => c.text).join('')}.`).join(' ');
}

/** Options that change what the scripted model does, for tests (never used by the demo). */
export interface Variation {
  /** Add a claim citing a source id that was never stored, so verify_report must refuse the report. */
  fabricateCitation?: boolean;
  /** The writer leaves every pair the audit did not find SUPPORTED as it is (the audit's negative control). */
  ignoreAudit?: boolean;
}

const terms = (s: string) => s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/**
 * The offline search engine: pages of the thread's affinity whose keywords occur in the query, best match
 * first (more keywords matched, then scenario order). `always` pages come back for every query, which is how
 * a fixture web "keeps returning the same pages".
 */
export function search(scenario: Scenario, thread: { name: string; critic: boolean }, query: string, baseUrl: string): string[] {
  const q = ` ${terms(query).join(' ')} `;
  const affinity = thread.critic ? 'critic' : thread.name;
  const scored = scenario.pages
    .map((p, index) => ({ p, index, score: p.always ? 1 : p.keywords.filter((k) => q.includes(` ${terms(k).join(' ')} `)).length }))
    .filter((x) => x.p.threads.includes(affinity) && x.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index);
  return scored.map((x) => new URL(x.p.path, baseUrl).toString());
}

export function pageFor(scenario: Scenario, url: string): ScenarioPage | undefined {
  let pathname: string;
  try {
    pathname = new URL(url).pathname;
  } catch {
    return undefined;
  }
  return scenario.pages.find((p) => p.path === pathname);
}

export function topicOf(scenario: Scenario, question: string): string | undefined {
  return scenario.topics[question.trim()];
}
