// The MCP server loads the fetch stack lazily: url-guard, passages and untrusted must not pull in the
// heavy libraries (undici, linkedom, Readability, turndown), so a server that never fetches stays fast to
// start. Checked on the static import graph, which is what the bundler follows.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './helpers.js';

const HEAVY = ['unpdf', 'undici', 'linkedom', '@mozilla/readability', 'turndown', '@joplin/turndown-plugin-gfm', 'html-encoding-sniffer', 'iconv-lite'];

function staticImports(file: string): string[] {
  const src = fs.readFileSync(file, 'utf8');
  const out: string[] = [];
  // `import ... from 'x'` and `export ... from 'x'`, but not `import type` (erased) nor `import('x')`.
  for (const m of src.matchAll(/^(?:import|export)\s+(?!type\s)[^'"]*?from\s+['"]([^'"]+)['"]/gm)) out.push(m[1] as string);
  for (const m of src.matchAll(/^import\s+['"]([^'"]+)['"]/gm)) out.push(m[1] as string);
  return out;
}

function closure(entry: string): Set<string> {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const stack = [entry];
  while (stack.length > 0) {
    const file = stack.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const spec of staticImports(file)) {
      if (spec.startsWith('.')) stack.push(path.resolve(path.dirname(file), spec.replace(/\.js$/, '.ts')));
      else packages.add(spec);
    }
  }
  return packages;
}

describe('fetch module weight', () => {
  it.each(['url-guard', 'passages', 'untrusted'])('%s loads none of the heavy libraries', (name) => {
    const packages = closure(path.join(repoRoot, 'src/fetch', `${name}.ts`));
    for (const heavy of HEAVY) expect(packages.has(heavy), `${name} imports ${heavy}`).toBe(false);
  });

  it('the PDF reader loads pdf.js only inside its worker, and nothing on the server path imports either statically', () => {
    expect(closure(path.join(repoRoot, 'src/fetch/pdf/read.ts')).has('unpdf')).toBe(false);
    expect(closure(path.join(repoRoot, 'src/fetch/pipeline.ts')).has('unpdf')).toBe(false);
    expect(closure(path.join(repoRoot, 'src/create-server.ts')).has('unpdf')).toBe(false);
    expect(fs.readFileSync(path.join(repoRoot, 'src/fetch/pdf/worker.ts'), 'utf8')).toContain("await import('unpdf')");
  });

  it('pipeline is where the heavy libraries come in', () => {
    const packages = closure(path.join(repoRoot, 'src/fetch/pipeline.ts'));
    for (const heavy of ['undici', 'linkedom', '@mozilla/readability', 'turndown']) expect(packages.has(heavy)).toBe(true);
  });
});
