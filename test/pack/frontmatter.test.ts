// Claude Code ignores what it does not recognise, and `claude plugin validate` misses broken YAML, a skill
// whose name differs from its folder, and bad model names; these checks catch them before a user does.
import { existsSync, lstatSync, readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import matter from 'gray-matter';
import { describe, expect, it } from 'vitest';
import { packFiles } from './pack-files.js';
import { REPO } from './tool-names.js';

const COMMAND_FIELDS = new Set([
  'name',
  'description',
  'argument-hint',
  'allowed-tools',
  'model',
  'disable-model-invocation',
  'user-invocable',
  'when_to_use',
]);
const AGENT_FIELDS = new Set(['name', 'description', 'tools', 'model', 'maxTurns']);
const MODEL = /^(sonnet|opus|haiku|fable|inherit|claude-[a-z0-9.-]+)$/;

const files = packFiles().filter((f) => f.kind !== 'reference');

describe('frontmatter of commands, skills and agents', () => {
  it('finds the pack', () => {
    expect(files.map((f) => f.rel)).toEqual(
      expect.arrayContaining([
        'commands/deep-research.md',
        'commands/deep-research-investigate.md',
        'agents/deep-research-investigator.md',
      ]),
    );
    expect(files.some((f) => f.kind === 'skill')).toBe(true);
  });

  for (const f of files) {
    describe(f.rel, () => {
      it('opens with a YAML block that parses', () => {
        expect(f.raw.startsWith('---\n'), 'frontmatter must be the first line').toBe(true);
        // A fresh parse without gray-matter's cache, so a YAML error surfaces here.
        expect(() => matter(`${f.raw}\n`, {})).not.toThrow();
        expect(Object.keys(f.data).length).toBeGreaterThan(0);
      });

      it('uses only fields Claude Code recognises', () => {
        const allowed = f.kind === 'agent' ? AGENT_FIELDS : COMMAND_FIELDS;
        const unknown = Object.keys(f.data).filter((k) => !allowed.has(k));
        expect(unknown, `unrecognised fields in ${f.rel}`).toEqual([]);
      });

      it('has a one-paragraph description', () => {
        expect(typeof f.data.description).toBe('string');
        const d = String(f.data.description);
        expect(d.trim().length).toBeGreaterThan(20);
        expect(d).not.toMatch(/\n\s*\n/);
      });

      it('names a valid model, if any', () => {
        if (f.data.model !== undefined) expect(String(f.data.model)).toMatch(MODEL);
      });

      if (f.kind === 'skill') {
        it('is named after its folder', () => {
          expect(f.data.name).toBe(path.basename(path.dirname(f.rel)));
        });
      }
      if (f.kind === 'agent') {
        it('has the required name, named after its file, and sane limits', () => {
          expect(f.data.name).toBe(path.basename(f.rel, '.md'));
          if (f.data.maxTurns !== undefined) expect(Number.isInteger(f.data.maxTurns) && Number(f.data.maxTurns) > 0).toBe(true);
        });
      }
      if (f.kind === 'command') {
        it('has an argument hint and no name that would differ from its file', () => {
          expect(typeof f.data['argument-hint']).toBe('string');
          if (f.data.name !== undefined) expect(f.data.name).toBe(path.basename(f.rel, '.md'));
        });
      }
    });
  }

  it('does not give a skill the name of a command: the plugin command would hide the skill', () => {
    const commands = new Set(files.filter((f) => f.kind === 'command').map((f) => path.basename(f.rel, '.md')));
    for (const s of files.filter((f) => f.kind === 'skill')) expect(commands.has(String(s.data.name))).toBe(false);
  });
});

function pngSize(file: string): { width: number; height: number } {
  const b = readFileSync(file);
  expect(b.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  expect(b.subarray(12, 16).toString('ascii')).toBe('IHDR');
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

describe('plugin manifest', () => {
  const plugin = JSON.parse(readFileSync(path.join(REPO, '.claude-plugin/plugin.json'), 'utf8'));
  const market = JSON.parse(readFileSync(path.join(REPO, '.claude-plugin/marketplace.json'), 'utf8'));

  it('names the plugin and its server deep-research, started from the committed bundle', () => {
    expect(plugin.name).toBe('deep-research');
    expect(plugin.version).toMatch(/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/);
    expect(plugin.license).toBe('MIT');
    expect(plugin.mcpServers).toEqual({
      'deep-research': { command: 'node', args: ['${CLAUDE_PLUGIN_ROOT}/dist/server.js'] },
    });
  });

  it('ships no root .mcp.json, which Claude Code would read as this repo’s project config', () => {
    expect(() => readFileSync(path.join(REPO, '.mcp.json'))).toThrow();
  });

  it('has a square PNG icon of 512 to 2048 px', () => {
    const { width, height } = pngSize(path.join(REPO, plugin.icon));
    expect(width).toBe(height);
    expect(width).toBeGreaterThanOrEqual(512);
    expect(width).toBeLessThanOrEqual(2048);
  });

  it('is listed by the marketplace with the same name and version', () => {
    const entry = market.plugins.find((p: { name: string }) => p.name === plugin.name);
    expect(entry).toBeDefined();
    expect(entry.version).toBe(plugin.version);
    expect(entry.source).toBe('./plugin');
  });

  it('installs from plugin/: the same manifest, links to what the plugin needs, and a package.json without dependencies', () => {
    // Claude Code copies the marketplace entry's source folder (following links) and runs `npm ci` there
    // when it finds a package.json with dependencies and a lockfile: plugin/ has neither, so an install
    // brings the bundle and the pack and no node_modules.
    const dir = path.join(REPO, 'plugin');
    expect(readFileSync(path.join(dir, '.claude-plugin/plugin.json'), 'utf8')).toBe(readFileSync(path.join(REPO, '.claude-plugin/plugin.json'), 'utf8'));
    for (const d of ['commands', 'agents', 'skills', 'dist', 'templates', 'assets', 'LICENSE']) {
      expect(lstatSync(path.join(dir, d)).isSymbolicLink(), d).toBe(true);
      expect(readlinkSync(path.join(dir, d)), d).toBe(`../${d}`);
    }
    const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
    expect(pkg).toMatchObject({ name: plugin.name, version: plugin.version, type: 'module' });
    for (const k of ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies', 'workspaces']) expect(pkg[k], k).toBeUndefined();
    for (const f of ['package-lock.json', 'npm-shrinkwrap.json', 'bun.lock', 'node_modules']) expect(existsSync(path.join(dir, f)), f).toBe(false);
  });

  it('agrees with package.json on the version', () => {
    const pkg = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8'));
    expect(plugin.version).toBe(pkg.version);
  });
});
