// Every file the pack's markdown points at must exist with exactly that case: macOS forgives `REFERENCE.md`
// for `reference.md`, Linux does not, and an agent that cannot open a reference just guesses.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { packFiles } from './pack-files.js';
import { REPO } from './tool-names.js';

/** True when every segment of `rel` (relative to the repo) exists with exactly this spelling. */
function existsExactly(rel: string): boolean {
  let dir = REPO;
  for (const seg of rel.split('/').filter((s) => s !== '' && s !== '.')) {
    if (seg === '..') return false;
    let entries: string[];
    try {
      entries = readdirSync(dir);
    } catch {
      return false;
    }
    if (!entries.includes(seg)) return false;
    dir = path.join(dir, seg);
  }
  return true;
}

interface Ref {
  file: string;
  line: number;
  target: string;
  /** The target as a path relative to the repository root. */
  resolved: string[];
}

const SKILL_DIRS = readdirSync(path.join(REPO, 'skills')).map((d) => `skills/${d}`);

function referencesIn(rel: string, text: string): Ref[] {
  const refs: Ref[] = [];
  const dir = path.posix.dirname(rel);
  text.split('\n').forEach((line, i) => {
    const at = (target: string, resolved: string[]) => refs.push({ file: rel, line: i + 1, target, resolved });
    // Markdown links and images, relative targets only.
    for (const m of line.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = (m[1] ?? '').split('#')[0] ?? '';
      // A placeholder such as sources/S<n>.md names a file of a run, not of the pack.
      if (target === '' || /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('${') || target.includes('<')) continue;
      at(target, [path.posix.normalize(path.posix.join(dir, target))]);
    }
    // Paths under the plugin root, which the installer also rewrites to the clone's absolute path.
    for (const m of line.matchAll(/\$\{CLAUDE_PLUGIN_ROOT\}\/([A-Za-z0-9_./-]*[A-Za-z0-9_])/g)) {
      at(m[0], [m[1] ?? '']);
    }
    // Reference notes mentioned by name: they live in a skill's references/ folder.
    for (const m of line.matchAll(/(?<![\w/}-])references\/([A-Za-z0-9_.-]+\.md)/g)) {
      at(m[0], SKILL_DIRS.map((d) => `${d}/references/${m[1]}`));
    }
    // Repository paths named in code spans, such as `commands/deep-research-investigate.md`.
    for (const m of line.matchAll(/`((?:commands|agents|skills|templates|dist|src)\/[A-Za-z0-9_./-]+)`/g)) {
      const target = m[1] ?? '';
      if (target.includes('<')) continue;
      at(target, [target]);
    }
  });
  return refs;
}

const sources = [
  ...packFiles().map((f) => ({ rel: f.rel, text: f.raw })),
  { rel: 'README.md', text: readFileSync(path.join(REPO, 'README.md'), 'utf8') },
];
const refs = sources.flatMap((s) => referencesIn(s.rel, s.text));

describe('files referenced from the pack’s markdown', () => {
  it('finds references to check', () => {
    expect(refs.length).toBeGreaterThan(5);
    expect(refs.some((r) => r.target.startsWith('${CLAUDE_PLUGIN_ROOT}'))).toBe(true);
  });

  it('all exist with exact case', () => {
    const missing = refs
      .filter((r) => !r.resolved.some(existsExactly))
      .map((r) => `${r.file}:${r.line} → ${r.target}`);
    expect(missing).toEqual([]);
  });

  it('every reference note is reachable from its SKILL.md', () => {
    for (const dir of SKILL_DIRS) {
      const skill = readFileSync(path.join(REPO, dir, 'SKILL.md'), 'utf8');
      let notes: string[] = [];
      try {
        notes = readdirSync(path.join(REPO, dir, 'references'));
      } catch {
        notes = [];
      }
      for (const n of notes) expect(skill, `${dir}/SKILL.md should say when to read ${n}`).toContain(`references/${n}`);
    }
  });
});
