// The libraries src/lazy-library.ts loads on first use, each built as one CommonJS file into `outdir`
// (dist/lib for the bundle), and the define that tells a bundle to look there.
import { build } from 'esbuild';
import { copyFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

export const LAZY_LIBRARIES_DEFINE = { 'process.env.DEEP_RESEARCH_BUNDLED_LIBRARIES': '"dist/lib"' };

export async function buildLazyLibraries(outdir) {
  await build({
    // Keep in step with LAZY_LIBRARIES in src/lazy-library.ts.
    entryPoints: { tldts: 'tldts', yaml: 'yaml', sdkShims: '@modelcontextprotocol/server/_shims', properLockfile: 'proper-lockfile' },
    outdir,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  // Keep in step with LAZY_DATA in src/lazy-library.ts: data is copied as JSON, which require() reads.
  copyFileSync(createRequire(import.meta.url).resolve('unhomoglyph/data.json'), join(outdir, 'confusables.json'));
}
