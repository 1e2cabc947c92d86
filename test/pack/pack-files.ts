// Reads every markdown file of the pack (commands, agents, skills and their references) once.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import matter from 'gray-matter';
import { REPO } from './tool-names.js';

export interface PackFile {
  /** Path relative to the repository root, with forward slashes. */
  rel: string;
  kind: 'command' | 'agent' | 'skill' | 'reference';
  raw: string;
  data: Record<string, unknown>;
  body: string;
}

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else if (name.endsWith('.md')) out.push(p);
  }
  return out;
}

function kindOf(rel: string): PackFile['kind'] {
  if (rel.startsWith('commands/')) return 'command';
  if (rel.startsWith('agents/')) return 'agent';
  return path.basename(rel) === 'SKILL.md' ? 'skill' : 'reference';
}

export function packFiles(): PackFile[] {
  return ['commands', 'agents', 'skills'].flatMap((top) =>
    walk(path.join(REPO, top)).map((abs) => {
      const rel = path.relative(REPO, abs).split(path.sep).join('/');
      const raw = readFileSync(abs, 'utf8');
      // gray-matter caches by content; a fresh options object keeps each parse independent.
      const parsed = matter(raw, {});
      return { rel, kind: kindOf(rel), raw, data: parsed.data as Record<string, unknown>, body: parsed.content };
    }),
  );
}

export function words(text: string): number {
  return text.split(/\s+/).filter((w) => w.length > 0).length;
}

/** allowed-tools / tools may be a YAML list or a comma-separated string. */
export function toolList(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === 'string') return value.split(',').map((s) => s.trim()).filter(Boolean);
  return [];
}
