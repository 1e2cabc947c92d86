// Libraries that no call needs before its first use are loaded then, not at server start: a cold start
// compiled and ran the public suffix list (tldts) and the YAML library for every session, about a quarter
// of the time to the first tool result. The bundle carries each as its own CommonJS file (dist/lib/,
// built by scripts/build.mjs, whose define selects the first branch below), required
// synchronously on first use (scripts/lazy-libraries.mjs). From sources (tests, tsx) Node's require loads
// the package.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const nodeRequire = createRequire(import.meta.url);

/**
 * The libraries split out of the bundle, by the name of their dist/lib/<name>.cjs and the module each is
 * (scripts/lazy-libraries.mjs builds one file for each). The SDK's JSON Schema validator (ajv) is needed only
 * if a client's answer to an elicitation is checked, which this server never asks for (src/sdk-shims.ts).
 * proper-lockfile (with graceful-fs, which patches fs as it loads) is needed by the first write to a run.
 */
export const LAZY_LIBRARIES = { tldts: 'tldts', yaml: 'yaml', sdkShims: '@modelcontextprotocol/server/_shims', properLockfile: 'proper-lockfile' } as const;

export function lazyLibrary<T>(name: keyof typeof LAZY_LIBRARIES): T {
  return load<T>(`${name}.cjs`, LAZY_LIBRARIES[name]);
}

/** Data files kept out of the bundle's start: dist/lib/<name>.json, copied from the package by scripts/lazy-libraries.mjs. */
export const LAZY_DATA = { confusables: 'unhomoglyph/data.json' } as const;

/** A JSON data file read on first use (Unicode's confusables table is 117 kB of code when bundled). */
export function lazyData<T>(name: keyof typeof LAZY_DATA): T {
  return load<T>(`${name}.json`, LAZY_DATA[name]);
}

/** dist/lib/<file> in the bundle; the package itself from sources. */
function load<T>(file: string, specifier: string): T {
  if (process.env.DEEP_RESEARCH_BUNDLED_LIBRARIES === 'dist/lib') {
    // This code sits in dist/ or in dist/chunks/.
    for (const rel of [`./lib/${file}`, `../lib/${file}`]) {
      const url = new URL(rel, import.meta.url);
      if (existsSync(url)) return nodeRequire(fileURLToPath(url)) as T;
    }
    throw new Error(`the bundle's dist/lib/${file} is missing: run npm run build`);
  }
  return nodeRequire(specifier) as T;
}
