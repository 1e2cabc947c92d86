// Temp folders that clean themselves up, and a byte-exact snapshot of a whole tree (folders included),
// for tests that prove an install or uninstall left everything else as it was.
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';

const made: string[] = [];

/** A temp folder removed after the current test. Call from inside a test or hook. */
export function tmp(prefix: string): string {
  const d = mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(d);
  return d;
}

/** Registers the clean-up in the importing test file. */
export function cleanTempDirsAfterEach(): void {
  afterEach(() => {
    for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
  });
}

export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const name of readdirSync(path.join(dir, rel)).sort()) {
      const r = path.join(rel, name);
      if (statSync(path.join(dir, r)).isDirectory()) {
        out[`${r}/`] = '';
        walk(r);
      } else out[r] = readFileSync(path.join(dir, r), 'latin1');
    }
  };
  walk('');
  return out;
}
