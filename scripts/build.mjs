// Bundles the server and the CLI into dist/, committed so the plugin runs straight from a git clone.
// The extraction stack sits behind a dynamic import, so esbuild splits it into a chunk that loads
// on the first fetch, keeping server start-up near the bare SDK.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildLazyLibraries, LAZY_LIBRARIES_DEFINE } from './lazy-libraries.mjs';

// The PDF and extraction workers are their own entries: worker threads start from a file, and read.ts and
// extract/off-thread.ts find them as dist/pdf-worker.js and dist/extract-worker.js. pdf.js lands in
// chunks only the PDF worker loads.
const entryPoints = { server: 'src/server.ts', 'pdf-worker': 'src/fetch/pdf/worker.ts', 'extract-worker': 'src/fetch/extract/worker.ts' };
if (existsSync('src/cli.ts')) entryPoints.cli = 'src/cli.ts';

// First pass: the tool list the server would compute at start-up, embedded below as a constant.
const listDir = mkdtempSync(join(tmpdir(), 'dr-tool-list-'));
await build({
  entryPoints: ['scripts/tool-list.ts'],
  outfile: join(listDir, 'tool-list.mjs'),
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  mainFields: ['module', 'main'],
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  logLevel: 'warning',
});
const toolList = execFileSync(process.execPath, [join(listDir, 'tool-list.mjs')], { encoding: 'utf8' });
rmSync(listDir, { recursive: true, force: true });

rmSync('dist', { recursive: true, force: true });
await build({
  entryPoints,
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  // Prefer ESM entry points so unused parts (e.g. stopword's other 60 languages) are tree-shaken.
  mainFields: ['module', 'main'],
  target: 'node20',
  minify: true,
  legalComments: 'none',
  chunkNames: 'chunks/[name]-[hash]',
  banner: {
    // CommonJS dependencies call require() for Node built-ins; ESM output needs a real one.
    js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
  },
  // src/lazy-library.ts then loads tldts and yaml from dist/lib/ (built below) on first use.
  define: { __DEEP_RESEARCH_TOOL_LIST__: JSON.stringify(toolList), ...LAZY_LIBRARIES_DEFINE },
  // The SDK's shim loads ajv at start; ours loads it from dist/lib/ on first use (src/sdk-shims.ts).
  alias: { '@modelcontextprotocol/server/_shims': './src/sdk-shims.ts' },
  logLevel: 'warning',
});

// Libraries loaded on first use (src/lazy-library.ts): one CommonJS file each, compiled only when required.
await buildLazyLibraries('dist/lib');
