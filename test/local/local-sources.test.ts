// Local folders as sources (SPEC 11.1) through a real MCP client: each format stored and quoted, a DOCX
// quote grounded, every way out of the root refused by name, search over the folder and the run, a file
// changed after indexing found by its new text, and no machine path in any artifact or reply.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { connect, snapshotTree, tempDir, type Harness } from '../helpers/mcp.js';
import { brief, QUESTION } from '../helpers/fixtures.js';
import { makePdf, prose } from '../helpers/pdf.js';
import { makeDocx } from '../helpers/docx.js';
import { expectWholeReply, fencedAround } from '../helpers/fenced.js';
import { closeIndexes } from '../../src/local/index.js';
import { lintArtifact } from '../../src/reports/lint.js';

const PARA = 'The harbour authority measured the tidal range at the northern pier for eleven years before the new breakwater was built.';

let base: string;
let docs: string;
let outside: string;
let cache: string;
let h: Harness;
let runId: string;
const replies: CallToolResult[] = [];

async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const r = await h.call(name, args);
  replies.push(r);
  return r;
}
async function ok(name: string, args: Record<string, unknown>): Promise<Record<string, any>> {
  const r = await call(name, args);
  if (r.isError) throw new Error(`${name} refused: ${JSON.stringify(r.content)}`);
  return r.structuredContent as Record<string, any>;
}
async function refused(name: string, args: Record<string, unknown>): Promise<string> {
  const r = await call(name, args);
  expect(r.isError, JSON.stringify(r.structuredContent)).toBe(true);
  return r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

beforeAll(async () => {
  base = fs.realpathSync(tempDir('dr-local-'));
  docs = path.join(base, 'Field Notes');
  outside = path.join(base, 'private');
  cache = path.join(base, 'cache');
  fs.mkdirSync(path.join(docs, 'sub'), { recursive: true });
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(docs, 'tides.pdf'), makePdf({ title: 'Tide survey', pages: [['Tide survey', PARA, ...prose(1, 3)], prose(2)] }));
  fs.writeFileSync(
    path.join(docs, 'sub', 'pier.html'),
    `<html><head><title>Pier history</title></head><body><nav>Home | About</nav><main><h1>Pier history</h1><p>The northern pier opened in 1887 and was rebuilt in concrete after the storm of 1953.</p><p>${prose(3).join(' ')}</p></main></body></html>`,
  );
  fs.writeFileSync(path.join(docs, 'notes.md'), `# Dredging notes\n\nThe channel was dredged to a depth of nine metres in the spring of 2019.\n\n${prose(4).join(' ')}\n`);
  fs.writeFileSync(path.join(docs, 'log.txt'), `Maintenance log\n\nThe fog signal was replaced by an electronic horn on 12 May 2021.\n\n${prose(5).join(' ')}\n`);
  fs.writeFileSync(
    path.join(docs, 'minutes.docx'),
    makeDocx('Board minutes', ['The board approved a budget of 4.2 million euros for the breakwater repairs in March.', prose(6).join(' ')]),
  );
  fs.writeFileSync(path.join(docs, 'sub', 'Tide Table (2020).txt'), `Spring tides reached 6.1 metres at the northern pier in March 2020.\n\n${prose(9).join(' ')}\n`);
  fs.writeFileSync(path.join(outside, 'secret.txt'), `Secret salaries.\n\n${prose(7).join(' ')}\n`);
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(docs, 'link-out.txt'));
  execFileSync('mkfifo', [path.join(docs, 'pipe.txt')]);
  h = await connect({ env: { DEEP_RESEARCH_LOCAL_ROOTS: `harbour=${docs}`, DEEP_RESEARCH_CACHE: cache } });
  const b = brief();
  (b.threads[0] as Record<string, unknown>).primary_origins = ['local:harbour'];
  runId = (await ok('start_run', { question: QUESTION, brief: b })).run_id;
});
afterAll(async () => {
  await h.close();
  closeIndexes();
  fs.rmSync(base, { recursive: true, force: true });
});

describe('the plan', () => {
  it('the dry run says how many documents each allowed folder holds', async () => {
    const dry = await ok('start_run', { question: 'What do the harbour files say about the pier?', brief: brief(), dry_run: true });
    // Six readable files and the symlink (refused when read); not the FIFO.
    expect(dry.local_roots).toEqual([{ origin: 'local:harbour', documents: 7 }]);
  });

  it('a thread whose primary origin is a folder is told to search it first', async () => {
    const t = await ok('start_thread', { run_id: runId, thread: 'Trials and output' });
    // With a search_sources query made of the first uncovered subject and the first open sub-question.
    expect(t.next.query_hints[0]).toBe(
      'this thread\'s sources are local (local:harbour): search_sources first, then the web for other kinds of source; a query to try: "iceland trial happened productivity four day"',
    );
    // The folder is read as a manual is: requirements and wording, not registries and datasets.
    expect(t.next.fetch_prompt).toMatch(/modal verb|defined terms/);
    expect(JSON.stringify(t.next.query_hints)).not.toMatch(/dataset|encyclopedic/);
    const other = await ok('start_thread', { run_id: runId, thread: 'Counter-evidence' });
    expect(JSON.stringify(other.next.query_hints)).not.toContain('search_sources');
  });
});

describe('fetch_source with path', () => {
  const cases = [
    { path: 'local:harbour/tides.pdf', type: 'pdf', quote: 'measured the tidal range at the northern pier' },
    { path: 'harbour/sub/pier.html', type: 'html', quote: 'rebuilt in concrete after the storm of 1953' },
    { path: 'local:harbour/notes.md', type: 'text', quote: 'dredged to a depth of nine metres' },
    { path: 'local:harbour/log.txt', type: 'text', quote: 'replaced by an electronic horn on 12 May 2021' },
    { path: 'local:harbour/minutes.docx', type: 'html', quote: 'approved a budget of 4.2 million euros' },
  ];
  for (const c of cases) {
    it(`stores ${c.path} as a local: source and returns its text fenced`, async () => {
      const r = await call('fetch_source', { run_id: runId, path: c.path, focus: c.quote });
      expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
      expectWholeReply(r);
      const s = r.structuredContent as Record<string, any>;
      const rel = c.path.replace(/^(local:)?harbour\//, '');
      expect(s.url).toBe(`local:harbour/${rel}`);
      expect(s.canonical_key).toBe(`local:harbour/${rel}`);
      expect(s.origin).toBe('local:harbour');
      expect(s.content_type).toBe(c.type);
      expect(fencedAround(s.content, c.quote)).toBe(true);
      const stored = fs.readFileSync(path.join(h.root, runId, 'sources', `${s.source_id}.md`), 'utf8');
      expect(stored).toContain(`url: local:harbour/${rel}`);
      expect(stored).toContain(c.quote);
    });
  }

  it('a file name with spaces and brackets gets a key that is one token, and every spelling finds it', async () => {
    const a = await ok('fetch_source', { run_id: runId, path: 'local:harbour/sub/Tide Table (2020).txt' });
    expect(a.url).toBe('local:harbour/sub/Tide%20Table%20%282020%29.txt');
    expect(a.canonical_key).toBe(a.url);
    const b = await ok('fetch_source', { run_id: runId, path: a.url });
    expect(b.source_id).toBe(a.source_id);
    const found = await ok('search_sources', { query: 'spring tides metres' });
    expect(found.results[0].url).toBe(a.url);
    const round = await ok('record_round', {
      run_id: runId,
      thread: 'Counter-evidence',
      query: 'spring tides',
      urls_visited: [a.url],
      facts: [{ fact: 'Spring tides reached 6.1 metres in March 2020.', url: 'local:harbour/sub/Tide Table (2020).txt', quote: 'Spring tides reached 6.1 metres at the northern pier in March 2020.', confidence: 'PLAUSIBLE' }],
      summary: 'Tide table read.',
    });
    expect(round.new_facts).toBe(1);
    // The micro-report links the fact to its stored file and address, and passes the lint.
    const micro = fs.readFileSync(path.join(h.root, round.micro_report), 'utf8');
    expect(micro).toContain(`<${a.url}>`);
    expect(lintArtifact(round.micro_report, micro)).toEqual([]);
  });

  it('a second read of the same file, by either spelling, is the stored copy', async () => {
    const a = await ok('fetch_source', { run_id: runId, path: 'local:harbour/log.txt' });
    const b = await ok('fetch_source', { run_id: runId, path: path.join(docs, 'log.txt') });
    expect(b.source_id).toBe(a.source_id);
    expect(b.duplicate).toBe(true);
  });

  it('a quote from the DOCX grounds in record_round and in verify_report', async () => {
    const docx = await ok('fetch_source', { run_id: runId, path: 'local:harbour/minutes.docx' });
    await ok('start_thread', { run_id: runId, thread: 'Trials and output' });
    const round = await ok('record_round', {
      run_id: runId,
      thread: 'Trials and output',
      query: 'breakwater budget',
      urls_visited: ['local:harbour/minutes.docx'],
      facts: [
        { fact: 'The board approved 4.2 million euros for breakwater repairs.', url: 'local:harbour/minutes.docx', quote: 'The board approved a budget of 4.2 million euros for the breakwater repairs in March.', confidence: 'VERIFIED', sub_questions: ['SQ-1'] },
      ],
      summary: 'Budget found in the minutes.',
    });
    expect(round.new_facts).toBe(1);
    // One origin, and primary: the thread names local:harbour in primary_origins.
    expect(round.facts[0].origins).toBe(1);
    expect(round.facts[0].primary).toBe(true);
    expect(JSON.stringify(round.warnings)).not.toMatch(/not found|ground/i);
    const id = docx.source_id as string;
    const tide = (await ok('fetch_source', { run_id: runId, path: 'local:harbour/sub/Tide Table (2020).txt' })).source_id as string;
    const report = `# Harbour\n\nThe board approved "a budget of 4.2 million euros for the breakwater repairs" [${id}]. Spring tides reached 6.1 metres [${tide}].\n\n## Methods\n\nOne thread.\n\n## Sources\n\n- [${id}] Board minutes — local:harbour/minutes.docx\n- [${tide}] Tide table — local:harbour/sub/Tide%20Table%20%282020%29.txt\n`;
    fs.writeFileSync(path.join(h.root, runId, 'report.md'), report);
    const v = await ok('verify_report', { run_id: runId });
    expect(v.problems.filter((p: { message: string }) => /quot|citation|url/i.test(p.message))).toEqual([]);
    // A listed address that is not the source's own is caught, as a web URL is.
    fs.writeFileSync(path.join(h.root, runId, 'report.md'), report.replace('local:harbour/minutes.docx', 'local:harbour/log.txt'));
    const wrong = await ok('verify_report', { run_id: runId });
    expect(wrong.problems.some((p: { message: string }) => p.message.includes(`the URL listed for [${id}] is not its stored URL`))).toBe(true);
    fs.writeFileSync(path.join(h.root, runId, 'report.md'), report.replace('4.2 million', '9.9 million'));
    const bad = await ok('verify_report', { run_id: runId });
    expect(bad.problems.some((p: { message: string }) => /quot/i.test(p.message))).toBe(true);
  });

  it('verify_report re-hashes a stored local source', async () => {
    const s = await ok('fetch_source', { run_id: runId, path: 'local:harbour/notes.md' });
    const file = path.join(h.root, runId, 'sources', `${s.source_id}.md`);
    const before = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, before.replace('nine metres', 'ten metres'));
    // A later mtime: the store keeps a parsed source until its file's mtime moves.
    fs.utimesSync(file, new Date(), new Date(Date.now() + 10_000));
    const v = await ok('verify_report', { run_id: runId });
    expect(v.problems.some((p: { message: string }) => p.message.includes(`source ${s.source_id}`) && /sha256/.test(p.message))).toBe(true);
    fs.writeFileSync(file, before);
  });
});

describe('refusals, each by name', () => {
  it('a path outside every root', async () => {
    const t = await refused('fetch_source', { run_id: runId, path: path.join(outside, 'secret.txt') });
    expect(t).toMatch(/outside every allowed folder \(harbour\)/);
  });
  it('a symlink out of the root', async () => {
    const t = await refused('fetch_source', { run_id: runId, path: 'local:harbour/link-out.txt' });
    expect(t).toMatch(/local:harbour\/link-out\.txt is a symlink that points outside the folder harbour/);
  });
  it('a FIFO, without waiting on it', async () => {
    const t = await refused('fetch_source', { run_id: runId, path: 'local:harbour/pipe.txt' });
    expect(t).toMatch(/local:harbour\/pipe\.txt is a FIFO \(named pipe\), not a regular file/);
  });
  it('a path with ..', async () => {
    const t = await refused('fetch_source', { run_id: runId, path: 'local:harbour/sub/../../private/secret.txt' });
    expect(t).toMatch(/contains "\.\."/);
    expect(await refused('fetch_source', { run_id: runId, path: 'harbour/../harbour/log.txt' })).toMatch(/contains "\.\."/);
  });
  it('a root the user did not allow, and both or neither of url and path', async () => {
    expect(await refused('fetch_source', { run_id: runId, path: 'local:etc/passwd' })).toMatch(/names no allowed folder: .*harbour/);
    expect(await refused('fetch_source', { run_id: runId, path: 'local:harbour/log.txt', url: 'https://example.org/' })).toMatch(/exactly one of url .* or path/);
    expect(await refused('fetch_source', { run_id: runId })).toMatch(/exactly one of url .* or path/);
  });
  it('a local: address given as url is read as that path, by the same rules (trial 64: the audit reads a source again by its url)', async () => {
    const a = await ok('fetch_source', { run_id: runId, path: 'local:harbour/log.txt' });
    const b = await ok('fetch_source', { run_id: runId, url: a.url, focus: 'fog signal horn' });
    expect(b).toMatchObject({ source_id: a.source_id, duplicate: true, url: 'local:harbour/log.txt' });
    expect(b.content).toContain('The fog signal was replaced by an electronic horn on 12 May 2021.');
    expect(await refused('fetch_source', { run_id: runId, url: 'local:etc/passwd' })).toMatch(/names no allowed folder: .*harbour/);
    expect(await refused('fetch_source', { run_id: runId, url: 'local:harbour/../private/secret.txt' })).toMatch(/contains "\.\."/);
    expect(await refused('fetch_source', { run_id: runId, url: 'local:harbour/link-out.txt' })).toMatch(/symlink|outside/i);
  });
  it('nothing was stored for any refusal', async () => {
    const tree = Object.keys(snapshotTree(path.join(h.root, runId, 'sources')));
    expect(tree.every((f) => !/secret|link-out|pipe/.test(fs.readFileSync(path.join(h.root, runId, 'sources', f), 'utf8')))).toBe(true);
  });
});

describe('search_sources', () => {
  it('finds a file of the root by its text, fenced in both channels', async () => {
    const r = await call('search_sources', { query: 'electronic horn fog signal' });
    expect(r.isError).toBeFalsy();
    expectWholeReply(r);
    const s = r.structuredContent as { results: { title: string; url: string; snippet: string }[]; documents: { root: string; count: number }[] };
    expect(s.results[0]?.url).toBe('local:harbour/log.txt');
    expect(fencedAround(s.results[0]!.snippet, 'electronic horn')).toBe(true);
    expect(fencedAround(s.results[0]!.title, 'log.txt')).toBe(true);
    const text = r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
    expect(fencedAround(text, 'electronic horn')).toBe(true);
    // What was searched is said only when nothing matched: with results it would repeat on every call.
    expect(s.documents).toBeUndefined();
    const none = await ok('search_sources', { query: 'xylophonic quasar' });
    expect(none.results).toEqual([]);
    // Six readable files; the symlink out and the FIFO are not documents.
    expect(none.documents).toEqual([{ root: 'local:harbour', count: 6 }]);
  });

  it('a file changed after the index was built is found by its new text', async () => {
    await ok('search_sources', { query: 'dredged channel' });
    const file = path.join(docs, 'notes.md');
    fs.writeFileSync(file, `# Dredging notes\n\nThe channel was widened for container ships called Paranthropus in 2024.\n\n${prose(8).join(' ')}\n`);
    fs.utimesSync(file, new Date(), new Date(Date.now() + 5_000));
    const s = await ok('search_sources', { query: 'Paranthropus' });
    expect(s.results.map((x: { url: string }) => x.url)).toContain('local:harbour/notes.md');
    // A new server (another session) reads the cache and still sees the change.
    closeIndexes();
    const again = await ok('search_sources', { query: 'Paranthropus container ships' });
    expect(again.results[0].url).toBe('local:harbour/notes.md');
  });

  it("with run_id, the run's stored web and local sources are searched too", async () => {
    const s = await ok('search_sources', { query: 'breakwater budget euros', run_id: runId, limit: 3 });
    expect(s.results[0].url).toBe('local:harbour/minutes.docx');
    const none = await ok('search_sources', { query: 'xylophonic quasar', run_id: runId });
    expect(none.documents.map((d: { root: string }) => d.root)).toEqual(['local:harbour', runId]);
  });

  it('the index lives in the cache folder, not in the artifacts', () => {
    expect(fs.readdirSync(path.join(cache, 'local-index')).some((f) => /^harbour-[0-9a-f]{12}\.json\.gz$/.test(f))).toBe(true);
    expect(Object.keys(snapshotTree(h.root)).some((f) => /index/.test(f))).toBe(false);
  });

  it('without a root or a run there is nothing to search, and it says how to allow a folder', async () => {
    const bare = await connect({ root: h.root, env: { DEEP_RESEARCH_CACHE: cache } });
    try {
      expect(await bare.refused('search_sources', { query: 'tide' })).toMatch(/DEEP_RESEARCH_LOCAL_ROOTS.*--local-root/);
      expect(await bare.refused('fetch_source', { run_id: runId, path: 'local:harbour/log.txt' })).toMatch(/no local folder is allowed/);
    } finally {
      await bare.close();
    }
  });
});

describe('no machine path', () => {
  it('in any artifact or reply', () => {
    const needles = [base, docs, outside, cache, h.root];
    for (const [f, content] of Object.entries(snapshotTree(h.root))) {
      for (const n of needles) expect(content.includes(n), `${f} holds ${n}`).toBe(false);
    }
    for (const r of replies) {
      const all = JSON.stringify(r);
      for (const n of needles) expect(all.includes(n), `a reply holds ${n}: ${all.slice(0, 300)}`).toBe(false);
    }
    expect(replies.length).toBeGreaterThan(15);
  });
});
