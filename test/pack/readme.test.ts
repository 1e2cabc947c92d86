// The README is the first thing a newcomer runs: it must open with the set-up commands, show install lines
// that match the manifests, and keep the markers the generated sections are written between.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from './tool-names.js';

const readme = readFileSync(path.join(REPO, 'README.md'), 'utf8');
const plugin = JSON.parse(readFileSync(path.join(REPO, '.claude-plugin/plugin.json'), 'utf8'));
const market = JSON.parse(readFileSync(path.join(REPO, '.claude-plugin/marketplace.json'), 'utf8'));

describe('README', () => {
  it('opens, after its title and one paragraph saying what it is, with the two set-up commands', () => {
    const [title, ...rest] = readme.split('\n');
    expect(title).toMatch(/^# /);
    const firstBlock = /```\n([\s\S]*?)```/.exec(rest.join('\n'))?.[1] ?? '';
    const [intro, afterIntro] = rest.join('\n').trimStart().split(/\n\n/, 2);
    expect(intro).not.toContain('```');
    expect(afterIntro?.startsWith('```')).toBe(true);
    expect(firstBlock.split('\n').filter(Boolean).map((l) => l.split('#')[0]?.trim())).toEqual(['npm ci && npm run demo', 'npm test']);
  });

  it('shows install lines that match the manifests', () => {
    expect(readme).toContain(`claude plugin install ${plugin.name}@${market.name}`);
    expect(readme).toContain(`/${plugin.name}:deep-research "`);
    expect(readme).toContain('dist/cli.js install --project .');
  });

  it('keeps the markers of the generated sections', () => {
    for (const m of ['<!-- tools:start -->', '<!-- tools:end -->', '<!-- performance:start -->', '<!-- performance:end -->']) {
      expect(readme).toContain(m);
    }
    expect(readme.indexOf('<!-- tools:start -->')).toBeLessThan(readme.indexOf('<!-- tools:end -->'));
  });

  it('has enough words for the plugin directory', () => {
    expect(readme.split(/\s+/).filter(Boolean).length).toBeGreaterThanOrEqual(40);
  });
});
