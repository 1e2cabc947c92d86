// Changing a template changes the output: the writers fill the template files, they do not hold markup.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';

describe('DEEP_RESEARCH_TEMPLATES', () => {
  it('renders from an edited copy of templates/', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dr-templates-'));
    for (const f of fs.readdirSync('templates')) fs.copyFileSync(path.join('templates', f), path.join(dir, f));
    fs.writeFileSync(path.join(dir, 'critique.md'), `${fs.readFileSync(path.join(dir, 'critique.md'), 'utf8')}\nHouse style footer.\n`);
    process.env.DEEP_RESEARCH_TEMPLATES = dir;
    const { render } = await import('../../src/reports/render.js');
    const out = render('critique', { question: 'Q', clean_signoffs: 0, stop: 'no', rounds: [], open_questions: [] });
    expect(out).toContain('House style footer.');
    expect(out).toContain('## Open Questions');
  });
});
