// Every file under a folder with its bytes, so a whole tree can be compared before and after.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

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
