import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { spliceReadme, toolTable } from '../scripts/readme-tools.js';

describe('README', () => {
  it('opens with what it is, for whom and why, then the two commands for a fresh machine', () => {
    const lines = fs.readFileSync('README.md', 'utf8').split('\n');
    const code = lines.findIndex((l) => l.includes('npm ci && npm run demo'));
    expect(code).toBeGreaterThanOrEqual(0);
    expect(code).toBeLessThan(15);
    expect(lines.slice(code, code + 3).some((l) => /^npm test\b/.test(l.trim()))).toBe(true);
    // The paragraph above the commands: two or three sentences saying what it does, for whom, what differs.
    const intro = lines.slice(1, code).join(' ').replace(/```/g, '').trim();
    const sentences = intro.split(/(?<=\.)\s+(?=[A-Z])/).filter(Boolean);
    expect(sentences.length, intro).toBeGreaterThanOrEqual(2);
    expect(sentences.length, intro).toBeLessThanOrEqual(3);
    expect(intro).toMatch(/research/);
    expect(intro).toMatch(/\bfor (people|anyone|researchers)\b/);
    expect(intro).toMatch(/What sets it apart/);
  });

  it('links a real model-written run beside the scripted demo on its first screen', () => {
    const first = fs.readFileSync('README.md', 'utf8').split('\n').slice(0, 24).join('\n');
    expect(first).toMatch(/real run, written by a model: \[examples\/\]\(examples\/README\.md\)/);
    // Its figures, not a placeholder: tokens, time, rounds and the independent judge's verdict.
    expect(first).toMatch(/\d+k tokens of tool output and \d+ minutes, rounds per thread [\d,\sand]+, and an\s+independent judge found \d+ of its \d+ claim–source pairs supported/);
    expect(first).not.toMatch(/TODO/);
    expect(first).toContain('[artifacts/](artifacts/README.md)');
    expect(fs.existsSync('examples/README.md')).toBe(true);
  });

  it('says plainly what the installed plugin depends on', () => {
    const readme = fs.readFileSync('README.md', 'utf8');
    expect(readme).toMatch(/By git URL:[^]*stands alone/);
    expect(readme).toMatch(/By folder[^]*depends on the clone staying where it is/);
    expect(fs.existsSync('test/e2e/plugin-location.e2e.test.ts')).toBe(true);
  });

  it('tells a new user the Node version, how long things take, the demo port and what not to commit', () => {
    const readme = fs.readFileSync('README.md', 'utf8');
    const engines = JSON.parse(fs.readFileSync('package.json', 'utf8')).engines.node as string;
    expect(engines).toBe('>=20');
    expect(readme).toContain('Needs Node 20 or later.');
    expect(readme).toMatch(/`npm ci` takes well under a minute.*`npm run demo` a few seconds, `npm test` about \d+ minutes/s);
    expect(readme).toContain('npm run demo -- --port 4600');
    expect(readme).toMatch(/`install --project` writes `\.mcp\.json` with this clone's absolute path[^]*do not commit that entry/);
  });

  it('has a tool table generated from the live tool list', async () => {
    const readme = fs.readFileSync('README.md', 'utf8');
    expect(spliceReadme(readme, await toolTable())).toBe(readme);
  });
});
