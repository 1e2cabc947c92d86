// File-system side of the generator: read the pack's source files, compare with and write targets/.
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { TARGETS_DIR, generateTargets, isSourcePath } from './index.js';

function walk(root: string, rel: string): string[] {
  const abs = path.join(root, rel);
  let names: string[];
  try {
    names = readdirSync(abs).sort();
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const n of names) {
    const r = rel === '' ? n : `${rel}/${n}`;
    if (statSync(path.join(root, r)).isDirectory()) out.push(...walk(root, r));
    else out.push(r);
  }
  return out;
}

export function readSources(root: string): Map<string, string> {
  const src = new Map<string, string>();
  for (const top of ['commands', 'agents', 'skills']) {
    for (const rel of walk(root, top)) if (isSourcePath(rel)) src.set(rel, readFileSync(path.join(root, rel), 'utf8'));
  }
  return src;
}

/** The generated files now on disk under targets/, except the hand-written README. */
export function readTargets(root: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const rel of walk(root, TARGETS_DIR)) {
    if (rel === `${TARGETS_DIR}/README.md`) continue;
    out.set(rel, readFileSync(path.join(root, rel), 'utf8'));
  }
  return out;
}

export interface Drift {
  missing: string[];
  changed: string[];
  extra: string[];
}

export function diffTargets(root: string): Drift {
  const want = generateTargets(readSources(root));
  const have = readTargets(root);
  const drift: Drift = { missing: [], changed: [], extra: [] };
  for (const [rel, text] of want) {
    const cur = have.get(rel);
    if (cur === undefined) drift.missing.push(rel);
    else if (cur !== text) drift.changed.push(rel);
  }
  for (const rel of have.keys()) if (!want.has(rel)) drift.extra.push(rel);
  return drift;
}

/** Writes every generated file and removes generated files that no longer have a source. */
export function writeTargets(root: string): Drift {
  const drift = diffTargets(root);
  const want = generateTargets(readSources(root));
  for (const rel of [...drift.missing, ...drift.changed]) {
    const abs = path.join(root, rel);
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, want.get(rel) as string);
  }
  for (const rel of drift.extra) rmSync(path.join(root, rel));
  return drift;
}
