// The commands are read into the agent's context on every run, so their length is a cost paid each time;
// a worked example is the cheapest way to show the sequence of calls, so every command must have one.
import { describe, expect, it } from 'vitest';
import { packFiles, words } from './pack-files.js';

const files = packFiles();
const commands = files.filter((f) => f.kind === 'command');

describe('size and shape of the prose', () => {
  // 4,000 until issue 20 added 159 words: primary origins in the plan, how to verify a fact, the basis.
  // Issue 25 added 111: search_sources in both commands' tools, local folders in the plan and the search.
  it('the commands together stay under 4,269 words', () => {
    const total = commands.reduce((n, c) => n + words(c.raw), 0);
    expect(total).toBeLessThan(4269);
  });

  for (const c of commands) {
    it(`${c.rel} has a worked example`, () => {
      expect(c.body).toMatch(/^## Worked example\s*$/m);
    });
  }

  it('each SKILL.md stays a short entry point', () => {
    for (const s of files.filter((f) => f.kind === 'skill')) expect(words(s.raw)).toBeLessThan(500);
  });

  it('no shouting: no line of prose written in capitals', () => {
    for (const f of files) {
      for (const line of f.body.split('\n')) {
        const caps = line.match(/\b[A-Z]{4,}\b/g) ?? [];
        // Upper-case identifiers of the contract (phases, actions, levels) are fine; emphasis words are not.
        const shouted = caps.filter((w) => ['MUST', 'NEVER', 'ALWAYS', 'IMPORTANT', 'CRITICAL', 'NOTE', 'WARNING'].includes(w));
        expect(shouted, `${f.rel}: ${line}`).toEqual([]);
      }
    }
  });
});
