import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { spliceReadme, toolTable } from '../scripts/readme-tools.js';

describe('README', () => {
  it('opens with the two commands for a fresh machine', () => {
    const lines = fs.readFileSync('README.md', 'utf8').split('\n').filter((l) => l.trim() !== '');
    const code = lines.findIndex((l) => l.includes('npm ci && npm run demo'));
    expect(code).toBeGreaterThanOrEqual(0);
    expect(code).toBeLessThan(6);
    expect(lines.slice(code, code + 3).some((l) => /^npm test\b/.test(l.trim()))).toBe(true);
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
