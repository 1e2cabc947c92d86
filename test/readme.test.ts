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

  it('has a tool table generated from the live tool list', async () => {
    const readme = fs.readFileSync('README.md', 'utf8');
    expect(spliceReadme(readme, await toolTable())).toBe(readme);
  });
});
