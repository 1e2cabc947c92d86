// Path traversal (SPEC 7: "writes stay inside the artifacts root: thread names and ids never become
// paths unchecked"; SPEC 6: "file names are slugs (lower-case, hyphens) that cannot escape the run
// folder"). Hostile thread names and questions drive every writing tool; hostile run ids and report
// paths are refused with nothing written and nothing read outside.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import matter from 'gray-matter';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Harness } from '../helpers/mcp.js';
import { outsideTree, rootTree, sandbox, listFiles, type Sandbox } from '../helpers/safety-fs.js';
import { BRIEF_SECTIONS, COMPLETION_SECTIONS, MICRO_REPORT_SECTIONS } from '../../src/reports/spec-sections.js';

const hashOf = (file: string) => (fs.existsSync(file) ? createHash('sha256').update(fs.readFileSync(file)).digest('hex') : 'absent');
// We may run as root: guard the real files a broken server could reach by name.
const SYSTEM_FILES = ['/etc/passwd', '/etc/hosts'];

const HOSTILE_NAMES = [
  '..',
  '../../x',
  '/etc/passwd',
  'C:\\x',
  '..\\..\\windows\\system32',
  'a\u0000b',
  '.',
  '~/.ssh/authorized_keys',
  'x/../../../y',
  '%2e%2e%2f%2e%2e%2fz',
  '\u202Etxt.exe',
  '🧪 trial 🔬',
  'ثريد: عربي',
  '线程 一',
  'CON',
  'nul',
  ' leading and trailing ',
  '-rf',
  'Thread: A/B',
  'thread a b',
  'Alpha',
  'alpha',
  'caf\u00e9',
  'cafe\u0301',
  `${'n'.repeat(199)}/`,
  '$(touch pwned)`id`',
];

const HOSTILE_QUESTIONS = [
  '../../../etc/passwd',
  '/etc/passwd',
  'C:\\Windows\\System32\\x',
  '..\u0000/..\u0000/x',
  `${'q'.repeat(300)}?`,
  '🧪🔬 does ∑ emoji ‮ work?',
  `${'../'.repeat(600)}x`,
];

/** Lower-case hyphen slugs: SPEC 6 file names. Source files keep their spec'd S<n> ids. */
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
function checkFileName(rel: string): string | undefined {
  const parts = rel.split('/');
  const [run, ...rest] = parts;
  if (!run || !SLUG.test(run) || run.length > 120) return `run folder "${run}" is not a slug`;
  const name = rest.join('/');
  if (/^[a-z0-9]+(?:-[a-z0-9]+)*\.md$/.test(name)) return undefined;
  if (/^state\/[a-z0-9]+(?:-[a-z0-9]+)*\.json$/.test(name)) return undefined;
  if (/^state\/source-keys\/[0-9a-f]+\.json$/.test(name)) return undefined;
  if (/^sources\/S[1-9][0-9]*\.md$/.test(name)) return undefined;
  return `"${name}" is not a slug file name`;
}

describe('path traversal through thread names and questions', () => {
  let sb: Sandbox;
  let h: Harness;
  let outsideBefore: Record<string, string>;
  const systemBefore = SYSTEM_FILES.map(hashOf);
  const runs: { runId: string; names: string[] }[] = [];
  const failures: string[] = [];

  beforeAll(async () => {
    sb = sandbox();
    outsideBefore = outsideTree(sb);
    h = await connect({ root: sb.root });
    const chunks: string[][] = [];
    for (let i = 0; i < HOSTILE_NAMES.length; i += 5) chunks.push(HOSTILE_NAMES.slice(i, i + 5));
    for (const [i, names] of chunks.entries()) {
      const question = HOSTILE_QUESTIONS[i % HOSTILE_QUESTIONS.length] + (i >= HOSTILE_QUESTIONS.length ? ` #${i}` : '');
      const run = await h.ok('start_run', {
        question,
        depth: 'deep',
        brief: { threads: names.map((name) => ({ name, sub_questions: [{ id: 'SQ-1', question: `What about ${name}?` }], subjects: [name.trim() || 'x'] })) },
      });
      runs.push({ runId: run.run_id, names: [...names] });
      for (const thread of names) {
        for (const [tool, args] of [
          ['start_thread', {}],
          ['check_drift', { url: 'https://example.org/p', text: `Text about ${thread}` }],
          ['record_round', { query: `query about ${thread}`, urls_visited: ['https://example.org/p'], facts: [], summary: `Summary for ${thread}.` }],
          ['thread_status', {}],
          ['complete_thread', { gaps: [{ gap: thread, why_not_found: thread, rounds_attempted: 1, next_step: thread }] }],
        ] as const) {
          const r = await h.call(tool, { run_id: run.run_id, thread, ...args });
          if (r.isError) failures.push(`${tool}(${JSON.stringify(thread)}): ${JSON.stringify(r.content)}`);
        }
      }
      // A critic thread with a hostile name goes through the brief re-render too.
      const critic = `../critic/${names[0]}`;
      const c = await h.call('start_thread', {
        run_id: run.run_id,
        thread: critic,
        definition: { sub_questions: [{ id: '../SQ', question: '/etc/passwd?' }], subjects: ['..'] },
      });
      if (c.isError) failures.push(`start_thread(critic ${JSON.stringify(critic)}): ${JSON.stringify(c.content)}`);
      else runs.at(-1)!.names.push(critic);
      const cr = await h.call('record_critique', {
        run_id: run.run_id,
        gaps: [{ kind: 'modality', description: '../../x', query: '/etc/passwd', priority: 1, material: true }],
        signoff: false,
      });
      if (cr.isError) failures.push(`record_critique: ${JSON.stringify(cr.content)}`);
    }
  });
  afterAll(async () => h?.close());

  it('accepts any thread name and any question (they are only slugged for file names)', () => {
    expect(failures).toEqual([]);
  });

  it('writes nothing outside the artifacts root (the parent folder and system files are unchanged)', () => {
    expect(outsideTree(sb)).toEqual(outsideBefore);
    expect(SYSTEM_FILES.map(hashOf)).toEqual(systemBefore);
    expect(fs.readdirSync(sb.dir).sort()).toEqual(['artifacts', 'outside']);
  });

  it('names every file with a lower-case hyphen slug inside its run folder', () => {
    const files = listFiles(sb.root);
    expect(files.length).toBeGreaterThan(HOSTILE_NAMES.length * 3);
    const bad = files.map((f) => checkFileName(f)).filter(Boolean);
    expect(bad).toEqual([]);
    for (const f of files) expect(Buffer.byteLength(path.basename(f))).toBeLessThanOrEqual(120);
    // Every real path resolves inside the root.
    for (const f of files) expect(fs.realpathSync(path.join(sb.root, f)).startsWith(`${sb.root}${path.sep}`)).toBe(true);
  });

  it('gives every thread its own files: names that slug alike ("Thread: A/B" vs "thread a b", case, NFC vs NFD) never share one', () => {
    const seen = new Map<string, string>();
    for (const { runId, names } of runs) {
      // Critic threads were opened but not recorded; every other thread recorded round 1.
      for (const name of names.filter((n) => !n.startsWith('../critic/'))) {
        const reports = fs
          .readdirSync(path.join(sb.root, runId))
          .filter((f) => f.startsWith('micro-report-'))
          .filter((f) => matter(fs.readFileSync(path.join(sb.root, runId, f), 'utf8'), { delimiters: '---' } as never).data.thread === name);
        expect(reports, `micro-report of ${JSON.stringify(name)}`).toHaveLength(1);
        const key = `${runId}/${reports[0]}`;
        expect(seen.get(key), `${JSON.stringify(name)} shares ${key}`).toBeUndefined();
        seen.set(key, name);
      }
    }
    const state = (runId: string) => fs.readdirSync(path.join(sb.root, runId, 'state')).filter((f) => f.startsWith('thread-'));
    for (const { runId, names } of runs) expect(state(runId)).toHaveLength(names.length);
  });

  it('keeps the exact thread name in the artifacts (frontmatter round-trips, title shows it)', () => {
    for (const { runId, names } of runs) {
      const completions = fs.readdirSync(path.join(sb.root, runId)).filter((f) => f.startsWith('thread-completion-'));
      const threads = completions.map((f) => matter(fs.readFileSync(path.join(sb.root, runId, f), 'utf8'), { delimiters: '---' } as never).data.thread);
      expect(threads.sort()).toEqual(names.filter((n) => !n.startsWith('../critic/')).sort());
    }
  });

  it('bounds the run folder of a 2,000-character question and refuses (or slugs) a 300-character thread name without writing', async () => {
    const before = rootTree(sb.root);
    const long = `${'w'.repeat(300)}`;
    const r = await h.call('start_run', { question: QUESTION_OK, brief: { threads: [{ name: long, sub_questions: [{ id: 'SQ-1', question: 'q?' }], subjects: [] }] } });
    if (r.isError) {
      expect((r.content[0] as { text: string }).text).toMatch(/\S/);
      expect(rootTree(sb.root)).toEqual(before);
    } else {
      for (const f of listFiles(sb.root)) expect(Buffer.byteLength(path.basename(f))).toBeLessThanOrEqual(120);
    }
    const q = await h.ok('start_run', { question: `${'é'.repeat(1999)}?`, brief: { threads: [{ name: 'x', sub_questions: [{ id: 'SQ-1', question: 'q?' }], subjects: [] }] } });
    expect(q.run_id).toMatch(SLUG);
    expect(q.run_id.length).toBeLessThanOrEqual(60);
    expect(outsideTree(sb)).toEqual(outsideBefore);
  });
});

const QUESTION_OK = 'A plain question about four-day weeks?';

describe('hostile run_id values are refused with nothing written', () => {
  let sb: Sandbox;
  let h: Harness;
  let runId: string;
  beforeAll(async () => {
    sb = sandbox();
    h = await connect({ root: sb.root });
    runId = (
      await h.ok('start_run', {
        question: QUESTION_OK,
        brief: { threads: [{ name: 'T', sub_questions: [{ id: 'SQ-1', question: 'q?' }], subjects: [] }] },
      })
    ).run_id;
    await h.ok('start_thread', { run_id: runId, thread: 'T' });
    // A look-alike run outside the root that a traversal would find.
    fs.mkdirSync(path.join(sb.outside, 'state'), { recursive: true });
    fs.copyFileSync(path.join(sb.root, runId, 'state', 'run.json'), path.join(sb.outside, 'state', 'run.json'));
  });
  afterAll(async () => h?.close());

  const BAD_IDS = (runId: string, sb: Sandbox) => [
    '../x',
    'a/b',
    '..',
    '.',
    '',
    '/tmp/x',
    '/etc',
    sb.outside,
    '../outside',
    `../artifacts/${runId}`,
    `${runId}/../${runId}`,
    `${runId}/`,
    `${runId}/state`,
    `./${runId}`,
    'C:\\x',
    '..\\outside',
    `${runId}\u0000`,
    '%2e%2e%2foutside',
    'UPPER-case',
    '-leading',
    'trailing-',
    'a--b',
    'x'.repeat(121),
    ' ',
    'unknown-run-abc123',
  ];
  const ARGS: Record<string, Record<string, unknown>> = {
    start_thread: { thread: 'T' },
    fetch_source: { url: 'http://127.0.0.1/x' },
    check_drift: { thread: 'T', url: 'https://example.org/x', text: 'text' },
    record_round: { thread: 'T', query: 'q', urls_visited: [], facts: [], summary: 's' },
    thread_status: { thread: 'T' },
    complete_thread: { thread: 'T' },
    record_critique: { gaps: [], signoff: true },
    verify_report: {},
  };

  for (const tool of Object.keys(ARGS)) {
    it(`${tool} refuses run_id traversal, absolute paths and non-slugs, and writes nothing`, async () => {
      const rootBefore = rootTree(sb.root);
      const outsideBefore = outsideTree(sb);
      for (const bad of BAD_IDS(runId, sb)) {
        const r = await h.call(tool, { run_id: bad, ...ARGS[tool] });
        expect(r.isError, `${tool} run_id=${JSON.stringify(bad)} answered ${JSON.stringify(r.structuredContent)}`).toBe(true);
        const text = r.content[0] && r.content[0].type === 'text' ? r.content[0].text : '';
        expect(text.trim().length, `${tool} ${JSON.stringify(bad)}`).toBeGreaterThan(0);
        expect(rootTree(sb.root), `${tool} ${JSON.stringify(bad)} wrote under the root`).toEqual(rootBefore);
        expect(outsideTree(sb), `${tool} ${JSON.stringify(bad)} wrote outside`).toEqual(outsideBefore);
      }
    });
  }
});

describe('verify_report never reads outside the run folder', () => {
  let sb: Sandbox;
  let h: Harness;
  let runId: string;
  let runDir: string;
  beforeAll(async () => {
    sb = sandbox();
    h = await connect({ root: sb.root });
    runId = (
      await h.ok('start_run', {
        question: QUESTION_OK,
        brief: { threads: [{ name: 'T', sub_questions: [{ id: 'SQ-1', question: 'q?' }], subjects: [] }] },
      })
    ).run_id;
    runDir = path.join(sb.root, runId);
    fs.writeFileSync(path.join(runDir, 'report.md'), '# Report\n\nNothing cited.\n\n## Methods\n\nNone.\n\n## Sources\n');
    fs.symlinkSync(sb.secret, path.join(runDir, 'link.md'));
    fs.symlinkSync(sb.outside, path.join(runDir, 'linked-dir'));
    fs.mkdirSync(path.join(runDir, 'nested'));
    fs.symlinkSync('../../../outside/secret.txt', path.join(runDir, 'nested', 'relative-link.md'));
  });
  afterAll(async () => h?.close());

  /** Refused, or answered without a byte of the outside file (its marker citation S424242). */
  async function expectNotReadOutside(p: string) {
    const before = outsideTree(sb);
    const rootBefore = rootTree(sb.root);
    const r = await h.call('verify_report', { run_id: runId, path: p });
    const text = JSON.stringify(r);
    expect(text, `verify_report path=${JSON.stringify(p)} read the outside file: ${text.slice(0, 400)}`).not.toContain('424242');
    if (!r.isError) {
      const sc = r.structuredContent as { ok: boolean; citations: number };
      expect(sc.ok, `path=${JSON.stringify(p)} reported ok`).toBe(false);
      expect(sc.citations).toBe(0);
    } else {
      expect((r.content[0] as { text: string }).text).toMatch(/\S/);
    }
    expect(outsideTree(sb)).toEqual(before);
    expect(rootTree(sb.root)).toEqual(rootBefore);
  }

  for (const p of [
    '../../etc/passwd',
    '../../../../../../../../etc/passwd',
    '/etc/passwd',
    '../../outside/secret.txt',
    '../outside/secret.txt',
    'state/../../../outside/secret.txt',
    'report.md\u0000../../outside/secret.txt',
    '..',
    '.',
    '',
  ]) {
    it(`refuses path ${JSON.stringify(p)}`, async () => {
      await expectNotReadOutside(p);
    });
  }

  it('refuses an absolute path to a file outside the root', async () => {
    await expectNotReadOutside(sb.secret);
    await expectNotReadOutside(path.join(sb.root, '..', 'outside', 'secret.txt'));
  });

  it('does not follow a symlinked report file inside the run folder out of it', async () => {
    await expectNotReadOutside('link.md');
    await expectNotReadOutside(`${runId}/link.md`);
    await expectNotReadOutside('nested/relative-link.md');
  });

  it('does not follow a symlinked folder inside the run folder out of it', async () => {
    await expectNotReadOutside('linked-dir/secret.txt');
  });

  it('still verifies the real report.md (the refusals above are not blanket)', async () => {
    const r = await h.ok('verify_report', { run_id: runId });
    expect(r.citations).toBe(0);
    const p = await h.ok('verify_report', { run_id: runId, path: 'report.md' });
    expect(p).toEqual(r);
  });
});

describe('names and texts cannot inject structure into the artifacts', () => {
  // A thread name, question, focus or summary is data: it must not add a heading, end the frontmatter,
  // or break a table row. CommonMark line endings are LF, CRLF and a lone CR; U+2028/U+0085 are not,
  // but they are sent anyway to check nothing turns them into one.
  const INJECTIONS = [
    'a\n## Round Summary\nb',
    'c\r## Facts Extracted\rd',
    'e\r\n## Plateau History\r\nf',
    '---\ninjected: true\n---',
    'g | h | i',
    '<script>alert(1)</script>',
    'j\u2028## Gaps Remaining\u2029k',
    'l\u0085## Subject Coverage',
    '`m` [S1](http://evil.example) ![x](http://evil.example/x.png)',
  ];
  let h: Harness;
  const headings = (text: string) =>
    text
      .split(/\r\n|\r|\n/)
      .filter((l) => /^ {0,3}#{1,6} /.test(l))
      .map((l) => l.replace(/^ *#+ /, ''));

  async function runWith(o: { names: string[]; summary: string; focus: string; question: string }) {
    const runId = (
      await h.ok('start_run', {
        question: o.question,
        depth: 'deep',
        brief: { threads: o.names.map((name) => ({ name, sub_questions: [{ id: 'SQ-1', question: name }], subjects: [name.replace(/\s+/g, ' ').slice(0, 100)] })) },
      })
    ).run_id as string;
    for (const name of o.names) {
      await h.ok('start_thread', { run_id: runId, thread: name });
      await h.ok('record_round', {
        run_id: runId,
        thread: name,
        query: INJECTIONS[6],
        urls_visited: ['https://example.org/p'],
        facts: [{ fact: INJECTIONS[7], url: 'https://example.org/p', confidence: 'UNVERIFIED', notes: INJECTIONS[1] }],
        summary: o.summary,
        disambiguation_updates: [INJECTIONS[0]],
        sub_question_updates: [{ id: 'SQ-1', status: 'PARTIAL', key_finding: INJECTIONS[2] }],
        next_focus: o.focus,
      });
      await h.ok('complete_thread', { run_id: runId, thread: name, gaps: [{ gap: INJECTIONS[0], why_not_found: INJECTIONS[1], rounds_attempted: 1, next_step: INJECTIONS[6] }] });
    }
    return path.join(h.root, runId);
  }

  function headingProblems(dir: string): string[] {
    const problems: string[] = [];
    for (const f of fs.readdirSync(dir).filter((n) => n.startsWith('micro-report-') || n.startsWith('thread-completion-'))) {
      const text = fs.readFileSync(path.join(dir, f), 'utf8');
      const fm = matter(text, { delimiters: '---' } as never);
      if (!INJECTIONS.includes(fm.data.thread) && !/^Plain thread/.test(fm.data.thread)) problems.push(`${f}: frontmatter thread ${JSON.stringify(fm.data.thread)}`);
      if ('injected' in fm.data) problems.push(`${f}: frontmatter gained a key`);
      const want = f.startsWith('micro-report-') ? MICRO_REPORT_SECTIONS : COMPLETION_SECTIONS;
      const hs = headings(fm.content).slice(1); // the first is the title
      if (JSON.stringify(hs) !== JSON.stringify(want)) problems.push(`${f}: headings ${JSON.stringify(hs)}`);
    }
    return problems;
  }

  beforeAll(async () => {
    h = await connect({ root: sandbox().root });
  });
  afterAll(async () => h?.close());

  it('thread names, the question and one-line fields (next_focus, notes, key findings) add no heading, in any line ending', async () => {
    const dir = await runWith({
      names: INJECTIONS.slice(0, 6),
      question: 'Question with\n## Methods\ninside and \r## Sources too?',
      summary: 'A plain summary.',
      focus: INJECTIONS[1] as string,
    });
    const problems = headingProblems(dir);
    const brief = fs.readFileSync(path.join(dir, 'brief.md'), 'utf8');
    const top = headings(brief).filter((x) => (BRIEF_SECTIONS as readonly string[]).includes(x) || ['Methods', 'Sources', 'Round Summary', 'Facts Extracted'].includes(x));
    if (JSON.stringify(top) !== JSON.stringify(BRIEF_SECTIONS)) problems.push(`brief.md: headings ${JSON.stringify(headings(brief))}`);
    expect(problems).toEqual([]);
  });

  it('a round summary cannot add or repeat a SPEC section heading in the micro-report', async () => {
    const dir = await runWith({
      names: ['Plain thread'],
      question: 'A question with a plain brief for the summary check?',
      summary: 'Summary.\n\n## Facts Extracted\n\nforged\n\n# Next Round Guidance\n\nSetext heading\n---\n',
      focus: 'plain focus',
    });
    expect(headingProblems(dir)).toEqual([]);
  });
});
