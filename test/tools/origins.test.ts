// Origins end to end (issue 20): named hosts resolved to a local web, so each has its real registrable
// domain; fetch_source and the stored frontmatter show origins and mirrors, record_round computes
// confidence from them, and brief.md, the micro-report and the completion report show them.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Harness } from '../helpers/mcp.js';
import { brief, QUESTION } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../fetch/helpers.js';

// Every page ends with a paragraph of its own, long enough that the page is a source.
const page = (title: string, body: string) =>
  `<!DOCTYPE html><html><head><title>${title}</title></head><body><article><h1>${title}</h1>${body}<p>This page was written for a test of origins. It says where the figures come from and who wrote them down, and it repeats nothing else.</p></article></body></html>`;
const MANUAL = page(
  'Trial manual',
  '<p>The four-day week trial ran for six months across 61 companies. Revenue stayed broadly the same over the trial period. Most companies decided to continue with the four-day week after it ended. Staff reported lower burnout and better sleep during the trial.</p>',
);
const PAGES: Record<string, string> = {
  'www.trials.org/manual': MANUAL,
  'blog.example.com/post': page('A blog post', '<p>We read the results. Revenue stayed broadly the same over the trial period, say the organisers, and we think that is remarkable for a pilot of this size.</p>'),
  'docs.example.com/notes': page('Notes', '<p>Notes from the same company. Revenue stayed broadly the same over the trial period, according to the published results of the pilot study.</p>'),
  'news.other.org/story': page('A news story', '<p>Reporting on the pilot. Revenue stayed broadly the same over the trial period, the researchers wrote in their final report this week.</p>'),
  // The same text as the news story on another site: one origin with it.
  'mirror.example.net/story': page('A news story', '<p>Reporting on the pilot. Revenue stayed broadly the same over the trial period, the researchers wrote in their final report this week.</p>'),
};
const HOSTS = ['www.trials.org', 'blog.example.com', 'docs.example.com', 'news.other.org', 'mirror.example.net'];

let web: TestServer;
let h: Harness;
beforeAll(async () => {
  web = await startServer((req, res) => {
    const key = `${(req.headers.host ?? '').split(':')[0]}${req.url ?? ''}`;
    const body = PAGES[key];
    if (body === undefined) {
      res.statusCode = 404;
      res.end('not found');
      return;
    }
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(body);
  });
});
afterAll(async () => web?.close());
afterEach(async () => h?.close());

const url = (hostPath: string) => {
  const [host, ...rest] = hostPath.split('/');
  return `http://${host}:${web.port}/${rest.join('/')}`;
};

async function open(): Promise<{ runId: string; warnings: string[] }> {
  const p = web.port;
  h = await connect({
    env: {
      DEEP_RESEARCH_ALLOW_HOSTS: HOSTS.map((x) => `${x}:${p}`).join(','),
      DEEP_RESEARCH_RESOLVE: HOSTS.map((x) => `${x}:${p}:127.0.0.1`).join(','),
    },
  });
  const b = brief();
  Object.assign(b.threads[0]!, { primary_origins: [`https://www.trials.org/manual`, 'trials.org'] });
  Object.assign(b.threads[1]!, { primary_origins: ['en.wikipedia.org'] });
  const r = await h.ok('start_run', { question: QUESTION, brief: b });
  await h.ok('start_thread', { run_id: r.run_id, thread: 'Trials and output' });
  return { runId: r.run_id, warnings: r.warnings };
}

describe('origins', () => {
  it('primary origins are stored as registrable domains and shown in brief.md; an aggregator draws a plan warning; a misspelling is refused', async () => {
    const { runId, warnings } = await open();
    expect(warnings.join('\n')).toMatch(/thread "Counter-evidence" names wikipedia\.org as primary: a general aggregator/);
    expect(warnings.join('\n')).not.toMatch(/Trials and output" names/);
    const md = fs.readFileSync(path.join(h.root, runId, 'brief.md'), 'utf8');
    expect(md).toContain('Primary origins: trials.org\n');
    expect(md).toContain('Primary origins: wikipedia.org\n');
    const b = brief();
    Object.assign(b.threads[0]!, { primary_origin: ['trials.org'] });
    expect(await h.refused('start_run', { question: `${QUESTION} again`, brief: b })).toMatch(/"primary_origin" \(did you mean "primary_origins"\?\)/);
  });

  it('a repository URL on a code host is stored as the whole host, and the plan warning says what that means', async () => {
    // A real run gave github.com/python/cpython and got github.com with no word that every GitHub page now counts.
    h = await connect();
    const b = brief();
    Object.assign(b.threads[0]!, { primary_origins: ['https://github.com/python/cpython', 'docs.python.org'] });
    const r = await h.ok('start_run', { question: `${QUESTION} on a code host`, brief: b, dry_run: true });
    expect(r.warnings.join('\n')).toMatch(/thread "Trials and output" names github\.com as primary: origins are whole sites, so every project's pages there will count as primary/);
    expect(r.warnings.join('\n')).not.toMatch(/names python\.org/);
  });

  it('fetch_source answers each page\'s origin and a mirror\'s mirror_of, and stores both in the frontmatter', async () => {
    const { runId } = await open();
    const got: Record<string, { source_id: string; origin: string; mirror_of?: string }> = {};
    for (const k of ['www.trials.org/manual', 'news.other.org/story', 'mirror.example.net/story', 'blog.example.com/post']) {
      got[k] = await h.ok('fetch_source', { run_id: runId, url: url(k) });
    }
    expect(got['www.trials.org/manual']).toMatchObject({ source_id: 'S1', origin: 'trials.org' });
    expect(got['news.other.org/story']!.mirror_of).toBeUndefined();
    expect(got['mirror.example.net/story']).toMatchObject({ source_id: 'S3', origin: 'example.net', mirror_of: 'S2' });
    expect(got['blog.example.com/post']).toMatchObject({ origin: 'example.com' });
    const s3 = fs.readFileSync(path.join(h.root, runId, 'sources', 'S3.md'), 'utf8');
    expect(s3).toMatch(/\norigin: example\.net\nmirror_of: S2\n/);
    const again = await h.call('fetch_source', { run_id: runId, url: url('mirror.example.net/story') });
    const shown = JSON.parse((again.content[0] as { text: string }).text) as Record<string, unknown>;
    expect(shown).toMatchObject({ origin: 'example.net', mirror_of: 'S2' });
  });

  it('record_round computes confidence from origins and reports show them', async () => {
    const { runId } = await open();
    for (const k of ['www.trials.org/manual', 'blog.example.com/post', 'docs.example.com/notes', 'news.other.org/story', 'mirror.example.net/story']) {
      await h.ok('fetch_source', { run_id: runId, url: url(k) });
    }
    const q = 'Revenue stayed broadly the same over the trial period';
    const f = (n: number, u: string, also?: string) => ({
      fact: `Revenue held (${n}).`,
      url: url(u),
      quote: q,
      confidence: 'VERIFIED',
      sub_questions: ['SQ-1'],
      ...(also ? { also: [{ url: url(also), quote: q }] } : {}),
    });
    const r = await h.ok('record_round', {
      run_id: runId,
      thread: 'Trials and output',
      query: 'four-day week revenue',
      urls_visited: ['blog.example.com/post', 'docs.example.com/notes', 'news.other.org/story', 'mirror.example.net/story', 'www.trials.org/manual'].map(url),
      facts: [
        f(1, 'blog.example.com/post'), // one secondary site
        f(2, 'blog.example.com/post', 'docs.example.com/notes'), // a subdomain of the same site
        f(3, 'news.other.org/story', 'mirror.example.net/story'), // a mirror
        f(4, 'blog.example.com/post', 'news.other.org/story'), // a second site
        f(5, 'www.trials.org/manual'), // the primary source
      ],
      summary: 'Read five pages.',
    });
    expect(r.facts).toEqual([
      { confidence: 'PLAUSIBLE', origins: 1, primary: false },
      { confidence: 'PLAUSIBLE', origins: 1, primary: false },
      { confidence: 'PLAUSIBLE', origins: 1, primary: false },
      { confidence: 'VERIFIED', origins: 2, primary: false },
      { confidence: 'VERIFIED', origins: 1, primary: true },
    ]);
    expect(r.warnings.join('\n')).toMatch(/fact 1: recorded PLAUSIBLE, not VERIFIED: it rests on one site, example\.com, which is not a primary origin of this thread; to verify it, quote its primary source \(trials\.org\) read through fetch_source, or add also/);
    expect(r.sub_questions[0]).toMatchObject({ id: 'SQ-1', origins: 3 });
    const micro = fs.readFileSync(path.join(h.root, r.micro_report), 'utf8');
    expect(micro).toContain('| PLAUSIBLE | 1: example.com |');
    expect(micro).toContain('| VERIFIED | 2: example.com, other.org |');
    expect(micro).toContain('| VERIFIED | 1: trials.org (primary) |');
    expect(micro).toMatch(/^- fact 1: recorded PLAUSIBLE, not VERIFIED: it rests on one site, example\.com/m);

    const c = await h.ok('complete_thread', { run_id: runId, thread: 'Trials and output' });
    const done = fs.readFileSync(path.join(h.root, c.path), 'utf8');
    expect(done).toContain('Facts by basis: 1 primary source, 1 two origins, 3 neither\n');
    expect(done).toContain('(VERIFIED, origins 1: trials.org (primary), round 1)');

    // verify_report counts the cited facts by basis: S1 (the primary source) and S4 (the news story) are cited.
    const report = ['# Revenue', '', 'Revenue held [S1], and a news story agreed [S4].', '', '## Methods', '', 'One thread.', '', '## Sources', '', `- [S1] Trial manual — ${url('www.trials.org/manual')}`, `- [S4] A news story — ${url('news.other.org/story')}`, ''].join('\n');
    fs.writeFileSync(path.join(h.root, runId, 'report.md'), report);
    const v = await h.ok('verify_report', { run_id: runId });
    // Cited through S1: fact 5 (primary); through S4: facts 3 (its own page) and 4 (its also).
    expect(v.basis).toEqual({ primary: 1, two_origins: 1, neither: 1 });
  });

  it('refuses an unknown field inside also, naming the known ones', async () => {
    const { runId } = await open();
    const msg = await h.refused('record_round', {
      run_id: runId,
      thread: 'Trials and output',
      query: 'q',
      urls_visited: [],
      facts: [{ fact: 'x', url: url('blog.example.com/post'), confidence: 'PLAUSIBLE', also: [{ url: url('news.other.org/story'), qoute: 'x' }] }],
      summary: 's',
    });
    expect(msg).toMatch(/"qoute" \(did you mean "quote"\?\)/);
  });
});
