// The templates are what the writers fill: every section SPEC 6 lists is in them, and the output
// follows the template file, not code.
import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BRIEF_SECTIONS, COMPLETION_SECTIONS, CRITIQUE_SECTIONS, MICRO_REPORT_SECTIONS } from '../../src/reports/spec-sections.js';
import { cell, loadTemplate, render } from '../../src/reports/render.js';
import { withFrontmatter, splitFrontmatter } from '../../src/format/frontmatter.js';

const SECTIONS = {
  brief: BRIEF_SECTIONS,
  'micro-report': MICRO_REPORT_SECTIONS,
  'thread-completion': COMPLETION_SECTIONS,
  critique: CRITIQUE_SECTIONS,
} as const;

describe('templates/', () => {
  it.each(Object.entries(SECTIONS))('%s.md holds every SPEC 6 section, in order, as exact headings', (name, sections) => {
    const lines = loadTemplate(name as keyof typeof SECTIONS).split('\n');
    const at = sections.map((s) => lines.indexOf(`## ${s}`));
    expect(at.every((i) => i >= 0), `missing in ${name}: ${sections.filter((_, k) => at[k]! < 0).join(', ')}`).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });

  it('the completion template carries the title, the two fixed lines and a mermaid xychart', () => {
    const t = loadTemplate('thread-completion');
    expect(t).toContain('# Thread Completion Report: {{thread}}');
    expect(t).toContain('Rounds executed: {{rounds_executed}} of {{round_budget}}');
    expect(t).toContain('Convergence reason: {{convergence_reason}}');
    expect(t).toMatch(/```mermaid\nxychart-beta/);
  });

  it('renders with LF endings, no runs of blank lines, and markdown-safe cells', () => {
    const out = render('critique', { question: 'Q?\r\nsecond line', clean_signoffs: 0, stop: 'no', rounds: [], open_questions: [] });
    expect(out).not.toMatch(/\r/);
    expect(out).not.toMatch(/\n\n\n/);
    expect(out.endsWith('\n')).toBe(true);
    expect(cell('a | b\nc')).toBe('a \\| b c');
    expect(cell('')).toBe('—');
  });

  it('frontmatter renders YAML numbers and upper-case levels, and splits back byte-exact', () => {
    const text = withFrontmatter({ thread: 'A: "quoted" / thread', round: 3, saturation: 'HIGH', micro_reports: ['a.md', 'b.md'] }, 'body\n');
    expect(text).toMatch(/^---\nthread: .*\nround: 3\nsaturation: HIGH\nmicro_reports:\n  - a\.md\n  - b\.md\n---\nbody\n$/);
    const back = splitFrontmatter(text)!;
    expect(back.data).toEqual({ thread: 'A: "quoted" / thread', round: 3, saturation: 'HIGH', micro_reports: ['a.md', 'b.md'] });
    expect(back.body).toBe('body\n');
  });

  it('templates are plain files in templates/ that the writers read', () => {
    for (const name of Object.keys(SECTIONS)) expect(fs.existsSync(`templates/${name}.md`)).toBe(true);
  });
});

describe('source value (SPEC 4.1)', () => {
  it('is HIGH from 3 grounded facts, MEDIUM for 1–2, LOW for none', async () => {
    const { sourceValue } = await import('../../src/reports/completion.js');
    expect([0, 1, 2, 3, 7].map(sourceValue)).toEqual(['LOW', 'MEDIUM', 'MEDIUM', 'HIGH', 'HIGH']);
  });
});
