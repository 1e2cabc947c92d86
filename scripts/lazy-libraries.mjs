// The libraries src/lazy-library.ts loads on first use, each built as one CommonJS file into `outdir`
// (dist/lib for the bundle), and the define that tells a bundle to look there.
import { build } from 'esbuild';

export const LAZY_LIBRARIES_DEFINE = { 'process.env.DEEP_RESEARCH_BUNDLED_LIBRARIES': '"dist/lib"' };

export async function buildLazyLibraries(outdir) {
  await build({
    // Keep in step with LAZY_LIBRARIES in src/lazy-library.ts.
    entryPoints: { tldts: 'tldts', yaml: 'yaml', sdkShims: '@modelcontextprotocol/server/_shims' },
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
}
