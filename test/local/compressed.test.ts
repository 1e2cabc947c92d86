// Gzipped files of an allowed folder (Debian compresses most of a package's documentation): read as
// what their name is without `.gz`, found by search, and refused by name when they are a gzip bomb or
// not gzip data at all.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, tempDir, type Harness } from '../helpers/mcp.js';
import { brief, QUESTION } from '../helpers/fixtures.js';
import { makePdf, prose } from '../helpers/pdf.js';
import { fencedAround } from '../helpers/fenced.js';
import { closeIndexes } from '../../src/local/index.js';
import { MAX_LOCAL_BYTES } from '../../src/local/open.js';
import { quoteFound } from '../../src/engine/grounding.js';

const LIST = 'The authoritative list of virtual package names is kept in the debian-policy package.';
const YAML = `# Virtual package names\nvirtual-packages:\n  - name: mail-transport-agent\n    description: a mail transport agent such as exim or postfix, which delivers mail between hosts\n  - name: x-terminal-emulator\n    description: a terminal emulator for the X Window System that runs a shell in a window\n`;

let base: string;
let h: Harness;
let runId: string;

beforeAll(async () => {
  base = fs.realpathSync(tempDir('dr-gz-'));
  const docs = path.join(base, 'policy');
  fs.mkdirSync(docs);
  fs.writeFileSync(path.join(docs, 'virtual-package-names-list.txt.gz'), gzipSync(`Virtual package names\n\n${LIST}\n\n${prose(2).join(' ')}\n`));
  fs.writeFileSync(path.join(docs, 'virtual-package-names-list.yaml.gz'), gzipSync(YAML));
  fs.writeFileSync(path.join(docs, 'fhs.pdf.gz'), gzipSync(makePdf({ title: 'Filesystem Hierarchy', pages: [['Filesystem Hierarchy', 'The /var/mail directory holds the mailbox files of the users of the system.', ...prose(3)]] })));
  // Zeros past the cap compress about a thousandfold: a file of some 70 KB.
  fs.writeFileSync(path.join(docs, 'bomb.txt.gz'), gzipSync(Buffer.alloc(MAX_LOCAL_BYTES + 1024 * 1024)));
  fs.writeFileSync(path.join(docs, 'damaged.txt.gz'), Buffer.from(`not gzip at all: ${prose(4).join(' ')}`));
  fs.writeFileSync(path.join(docs, 'data.bin.gz'), gzipSync('binary'));
  h = await connect({ env: { DEEP_RESEARCH_LOCAL_ROOTS: `policy=${docs}`, DEEP_RESEARCH_CACHE: path.join(base, 'cache') } });
  runId = (await h.ok('start_run', { question: QUESTION, brief: brief() })).run_id;
});
afterAll(async () => {
  await h.close();
  closeIndexes();
  fs.rmSync(base, { recursive: true, force: true });
});

describe('gzipped files of an allowed folder', () => {
  it('counts each .gz file of a readable kind as a document, not another kind', async () => {
    const dry = await h.ok('start_run', { question: 'Which virtual package names does Debian list?', brief: brief(), dry_run: true });
    expect(dry.local_roots).toEqual([{ origin: 'local:policy', documents: 5 }]);
  });

  for (const c of [
    { file: 'virtual-package-names-list.txt.gz', quote: LIST },
    { file: 'virtual-package-names-list.yaml.gz', quote: 'a terminal emulator for the X Window System that runs a shell in a window' },
    { file: 'fhs.pdf.gz', quote: 'The /var/mail directory holds the mailbox files' },
  ]) {
    it(`reads ${c.file} as the file it holds, and its quotes ground`, async () => {
      const s = await h.ok('fetch_source', { run_id: runId, path: `local:policy/${c.file}`, focus: c.quote });
      expect(s.url).toBe(`local:policy/${c.file}`);
      expect(fencedAround(s.content, c.quote)).toBe(true);
      const stored = fs.readFileSync(path.join(h.root, runId, 'sources', `${s.source_id}.md`), 'utf8');
      expect(quoteFound(c.quote, stored)).toBe(true);
    });
  }

  it('search finds the text inside a gzipped file', async () => {
    const found = await h.ok('search_sources', { query: 'authoritative list virtual package names' });
    expect(found.results[0].url).toBe('local:policy/virtual-package-names-list.txt.gz');
  });

  it('refuses a gzip bomb and a .gz file that holds no gzip data, each by name and saying why', async () => {
    const bomb = await h.call('fetch_source', { run_id: runId, path: 'local:policy/bomb.txt.gz' });
    expect(bomb.isError).toBe(true);
    expect(JSON.stringify(bomb.content)).toMatch(/local:policy\/bomb\.txt\.gz inflates to more than the 64 MiB a local source may have/);
    const damaged = await h.call('fetch_source', { run_id: runId, path: 'local:policy/damaged.txt.gz' });
    expect(damaged.isError).toBe(true);
    expect(JSON.stringify(damaged.content)).toMatch(/local:policy\/damaged\.txt\.gz is named \.gz but is not readable gzip data/);
    const other = await h.call('fetch_source', { run_id: runId, path: 'local:policy/data.bin.gz' });
    expect(JSON.stringify(other.content)).toMatch(/is not a file this server reads \(.*each also gzipped \(\.gz\)\)/);
  });
});
