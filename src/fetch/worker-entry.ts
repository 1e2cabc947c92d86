/**
 * Where a worker thread's code is. Bundled (dist/), it is `dist/<bundled>`, next to the chunk that loads
 * the caller or one folder up. From source (tests, tsx) it is the .ts file beside the caller, imported
 * through tsx's API: Node 20 does not apply `--import` loader hooks to a worker's entry module.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

export function workerEntry(here: string, source: string, bundled: string): { file: string | URL; eval: boolean } {
  if (/\.ts$/.test(fileURLToPath(here))) {
    const api = new URL('./dist/esm/api/index.mjs', pathToFileURL(createRequire(here).resolve('tsx/package.json'))).href;
    const worker = new URL(source, here).href;
    const code = `import(${JSON.stringify(api)}).then((m) => m.tsImport(${JSON.stringify(worker)}, ${JSON.stringify(here)}));`;
    return { file: code, eval: true };
  }
  for (const rel of [`./${bundled}`, `../${bundled}`]) {
    const file = new URL(rel, here);
    if (existsSync(file)) return { file, eval: false };
  }
  return { file: new URL(`./${bundled}`, here), eval: false };
}
