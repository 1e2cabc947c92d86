// The files for Gemini CLI, Codex CLI and OpenCode are generated from the Claude Code source and committed.
// These checks fail on drift, on a generated file that does not parse the way its CLI reads it, and on a
// rewrite rule that no longer matches the source.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import matter from 'gray-matter';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { GenerateError, SERVER_TOOLS, generateTargets } from '../../src/cli/generate/index.js';
import { diffTargets, readSources, readTargets } from '../../src/cli/generate/files.js';
import { HOSTS } from '../../src/cli/generate/hosts.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const generated = readTargets(REPO);
const files = [...generated.keys()].sort();

describe('targets/ is generated from the Claude Code source', () => {
  it('matches a fresh generation (run `npx tsx scripts/generate-targets.ts` after editing commands/, agents/ or skills/)', () => {
    expect(diffTargets(REPO)).toEqual({ missing: [], changed: [], extra: [] });
  });

  it('has every command for every CLI', () => {
    for (const c of ['deep-research', 'deep-research-investigate', 'deep-research-status', 'deep-research-verify']) {
      expect(files).toContain(`targets/gemini/commands/${c}.toml`);
      expect(files).toContain(`targets/opencode/commands/${c}.md`);
      expect(files).toContain(`targets/codex/skills/${c}/SKILL.md`);
    }
    for (const t of ['gemini', 'opencode']) {
      expect(files).toContain(`targets/${t}/agents/deep-research-investigator.md`);
      expect(files).toContain(`targets/${t}/skills/deep-research-method/investigate.md`);
    }
  });

  it('fails loudly, naming the rule, when the source no longer has a sentence a rule rewrites', () => {
    const src = readSources(REPO);
    const orch = src.get('commands/deep-research.md') as string;
    src.set('commands/deep-research.md', orch.replace('Request: $ARGUMENTS', 'Question: $ARGUMENTS'));
    expect(() => generateTargets(src)).toThrow(GenerateError);
    expect(() => generateTargets(src)).toThrow(/update the matching rule/);
  });

  it('refuses a new command that has no rewrite for the other CLIs', () => {
    const src = readSources(REPO);
    src.set('commands/deep-research-new.md', '---\ndescription: new one, long enough\nargument-hint: x\n---\nbody\n');
    expect(() => generateTargets(src)).toThrow(/no rewrite for the other CLIs/);
  });
});

describe('generated files parse as their CLI reads them', () => {
  for (const f of files.filter((f) => f.endsWith('.toml'))) {
    it(`${f}: TOML with description and prompt`, () => {
      const doc = parseToml(generated.get(f) as string) as Record<string, unknown>;
      expect(Object.keys(doc).sort()).toEqual(['description', 'prompt']);
      expect(typeof doc.description).toBe('string');
      expect(String(doc.prompt)).toMatch(/^# /);
      expect(String(doc.prompt)).not.toMatch(/!\{|@\{/);
    });
  }
  for (const f of files.filter((f) => f.endsWith('.md') && !f.includes('/references/') && !f.endsWith('/investigate.md'))) {
    it(`${f}: frontmatter`, () => {
      const text = generated.get(f) as string;
      expect(text.startsWith('---\n')).toBe(true);
      const data = matter(text, {}).data as Record<string, unknown>;
      expect(typeof data.description).toBe('string');
      expect(String(data.description).length).toBeGreaterThan(20);
      if (f.endsWith('/SKILL.md')) {
        expect(data.name).toBe(path.basename(path.dirname(f)));
        expect(Object.keys(data).sort()).toEqual(['description', 'name']);
        expect(String(data.description).length).toBeLessThanOrEqual(1024);
      }
      if (f === 'targets/opencode/agents/deep-research-investigator.md') expect(data.mode).toBe('subagent');
      if (f === 'targets/gemini/agents/deep-research-investigator.md') {
        expect(data.name).toBe('deep-research-investigator');
        expect(data.tools).toEqual(
          expect.arrayContaining(['read_file', 'google_web_search', ...['start_thread', 'record_round', 'complete_thread'].map(HOSTS.gemini.tool)]),
        );
      }
    });
  }

  it('names the server tools the way each CLI does, and no Claude Code names survive', () => {
    for (const [f, text] of generated) {
      expect(text, f).not.toMatch(/mcp__plugin_|mcp__deep-research__|ToolSearch|AskUserQuestion|WebSearch|CLAUDE_PLUGIN_ROOT/);
    }
    for (const id of ['gemini', 'codex', 'opencode'] as const) {
      const orch = [...generated].find(([f]) => f.startsWith(`targets/${id}/`) && /\/deep-research(\.toml|\.md|\/SKILL\.md)$/.test(f))?.[1] ?? '';
      expect(orch, id).toContain(HOSTS[id].tool('start_run'));
      for (const t of SERVER_TOOLS) expect(orch, `${id} ${t}`).toContain(`\`${t}\``);
    }
    expect(HOSTS.gemini.tool('start_run')).toBe('mcp_deep-research_start_run');
    expect(HOSTS.opencode.tool('start_run')).toBe('deep-research_start_run');
    expect(HOSTS.codex.tool('start_run')).toBe('mcp__deep_research__start_run');
  });

  it('says which investigation mode applies, with the sequential fallback', () => {
    for (const [f, text] of generated) {
      if (!/\/deep-research(\.toml|\.md|\/SKILL\.md)$/.test(f)) continue;
      expect(text, f).toContain('**Parallel mode**');
      expect(text, f).toContain('**Sequential mode**');
    }
  });

  it('points the model only at installed files, through the skills placeholder', () => {
    for (const [f, text] of generated) {
      expect(text, f).not.toContain(REPO);
      for (const m of text.matchAll(/\$\{DEEP_RESEARCH_SKILLS\}\/([^\s`"]+?)(?=[\s`")]|\.?\s|$)/g)) {
        const rel = (m[1] ?? '').replace(/[.,]$/, '');
        const host = f.split('/')[1];
        const target = rel.endsWith('/') ? `targets/${host}/skills/${rel}` : `targets/${host}/skills/${rel}`;
        expect([...generated.keys()].some((k) => k === target || k.startsWith(target)), `${f} → ${rel}`).toBe(true);
      }
    }
  });
});
