// check_drift's domain signal (trial 9): an exclude term built on the thread's own word ("Build-Depends" for a
// thread on Depends) no longer outnumbers a chapter about the subject, and a page that is about an excluded
// term says which terms fired and how often, with what to do when the exclude term is too broad.
import { afterEach, describe, expect, it } from 'vitest';
import { connect, type Harness } from '../helpers/mcp.js';
import { seedSource } from '../helpers/fixtures.js';

let h: Harness;
afterEach(async () => h?.close());

// A chapter on the binary relationship fields that names Build-Depends often (its section on source
// relationships), and the subject phrases less often than the excluded term.
const CHAPTER = [
  'Packages can declare in their control file that they have certain relationships to other packages.',
  'Pre-Depends is like Depends, except that the named packages are installed before unpacking starts.',
  'Recommends declares a strong, but not absolute, dependency, and Suggests says a package may be more useful with others.',
  ...Array.from({ length: 7 }, (_, n) => `The Depends field declares an absolute dependency (case ${n + 1}): a package that Depends on another is not configured before it, and Pre-Depends goes further.`),
  ...Array.from({ length: 8 }, (_, n) => `Build-Depends lists what building needs (source relationship ${n + 1}); an entry of Build-Depends is written as one of Depends.`),
].join('\n\n');
const NPM = Array.from({ length: 8 }, (_, n) => `npm installs what package.json lists under dependencies; npm ci reads the lock file (note ${n + 1}).`).join('\n\n');

describe('check_drift: excluded terms', () => {
  it('keeps a chapter about the subject that names a narrower excluded term, and says why it flags a page about an excluded one', async () => {
    h = await connect();
    const brief = {
      threads: [{ name: 'dependency fields', sub_questions: [{ id: 'SQ-1', question: 'What does Depends declare?' }], subjects: ['Depends and Pre-Depends', 'Recommends and Suggests'] }],
      disambiguation: { include: ['dpkg'], exclude: ['Build-Depends', 'npm'] },
    };
    const { run_id } = await h.ok('start_run', { question: 'How does Debian Policy define Depends, Recommends and Suggests?', brief });
    await h.ok('start_thread', { run_id, thread: 'dependency fields' });
    await seedSource(h.root, run_id, 'https://www.debian.org/doc/debian-policy/ch-relationships.html', CHAPTER, 'Declaring relationships between packages');
    await seedSource(h.root, run_id, 'https://docs.npmjs.com/cli/install', NPM, 'npm install');
    const chapter = await h.ok('check_drift', { run_id, thread: 'dependency fields', source_id: 'S1' });
    expect(chapter).toMatchObject({ drift: false, signals: [], action: 'extract' });
    const npm = await h.ok('check_drift', { run_id, thread: 'dependency fields', source_id: 'S2' });
    expect(npm).toMatchObject({ drift: true, action: 'skip' });
    expect(npm.signals).toContain('domain');
    expect(npm.why).toMatch(/^the page names the brief's excluded terms \("npm" 17×\) more often than this thread's subjects and include terms \(0×\)\. If the page is what the thread is about, the exclude term is too broad/);
  });
});
