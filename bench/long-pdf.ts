// R's reference manual (refman.pdf, 2,415 pages; Debian package r-doc-pdf) through the bundled server as a
// CLI runs it: fetched from a local web, then the help topics a trial needed past the page cap (`.libPaths`,
// `Startup`) found through more_pages and read with `pages`. Prints what each call returned and took; not a
// timed test. Run `npm run build` first, then `npx tsx bench/long-pdf.ts [dir of refman.pdf]`.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startServer } from '../test/fetch/helpers.js';
import { childEnv, StdioClient } from './stdio-client.js';
import { ourServer } from './targets.js';

const DIR = process.argv[2] ?? '/usr/share/doc/r-doc-pdf/manual';
const FILE = path.join(DIR, 'refman.pdf');

type Reply = { isError?: boolean; structuredContent?: any; content?: Array<{ text: string }> };

async function main(): Promise<void> {
  if (!fs.existsSync(FILE)) throw new Error(`${FILE} not found: install r-doc-pdf or pass the folder that holds refman.pdf`);
  const server = ourServer();
  if (!server.present) throw new Error(`${server.label} not found: run npm run build first`);
  const bytes = fs.readFileSync(FILE);
  const web = await startServer((req, res) => {
    if ((req.url ?? '').split('?')[0] !== '/refman.pdf') {
      res.statusCode = 404;
      res.end('not found');
      return;
    }
    res.setHeader('content-type', 'application/pdf');
    res.end(bytes);
  });
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'long-pdf-'));
  const client = new StdioClient(process.execPath, [server.entry], childEnv({ DEEP_RESEARCH_ARTIFACTS: root, DEEP_RESEARCH_LOG: 'off', DEEP_RESEARCH_ALLOW_HOSTS: web.hostPort }));
  try {
    await client.initialize();
    client.notify('notifications/initialized');
    const start = (await client.callTool('start_run', {
      question: 'Where does R look for packages and startup files?',
      depth: 'quick',
      brief: { threads: [{ name: 'T', sub_questions: [{ id: 'SQ-1', question: 'Which library paths and startup files does R read?' }], subjects: ['R startup'] }] },
    })) as Reply;
    const runId = start.structuredContent.run_id as string;
    const url = `${web.origin}/refman.pdf`;
    const call = async (label: string, args: Record<string, unknown>): Promise<any> => {
      const t0 = performance.now();
      const r = (await client.callTool('fetch_source', { run_id: runId, url, ...args })) as Reply;
      const ms = Math.round(performance.now() - t0);
      if (r.isError) throw new Error(`${label}: ${r.content?.[0]?.text}`);
      const s = r.structuredContent;
      const chars = JSON.stringify(s).length;
      console.log(`\n## ${label} — ${ms} ms, reply ${chars} chars`);
      console.log(JSON.stringify({ source_id: s.source_id, url: s.url.replace(web.origin, ''), pages: s.pages, total_chars: s.total_chars, more_pages: s.more_pages }, null, 1));
      return s;
    };
    const first = await call('first read, focus ".libPaths library paths and Startup"', { focus: '.libPaths library paths and Startup' });
    const pick = (title: RegExp): number => {
      const line = (first.more_pages?.outline ?? '').split('\n').find((l: string) => title.test(l));
      const p = /\(p\. (\d+)\)/.exec(line ?? '')?.[1];
      if (!p) throw new Error(`no outline entry past the cap matches ${title}`);
      return Number(p);
    };
    for (const [topic, title, needle] of [
      ['.libPaths', /libPaths/, /R_LIBS_USER/],
      ['Startup', /^(?:<[^>]+>)?\s*Startup \(/, /Rprofile\.site/],
    ] as const) {
      const from = pick(title);
      const s = await call(`${topic}: pages ${from}-${from + 2}`, { pages: { from, to: from + 2 }, focus: topic });
      const file = fs.readFileSync(path.join(root, runId, 'sources', `${s.source_id}.md`), 'utf8');
      const text = file.replace(/\\(.)/g, '$1');
      console.log(`${topic}: the stored span ${needle.test(text) ? 'holds' : 'LACKS'} ${needle}; excerpt: ${JSON.stringify(text.slice(text.indexOf('<!-- page'), text.indexOf('<!-- page') + 400))}`);
    }
    // The widest span one call reads, for its time against the parse limit.
    await call('widest span: pages 1201-1250', { pages: { from: 1201, to: 1250 }, max_chars: 500 });
  } finally {
    await client.close();
    await web.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
