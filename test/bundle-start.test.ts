// What the bundle loads to answer `initialize` is what every agent CLI session pays for (SPEC 7, cold start):
// the libraries only some calls need (the public suffix list, YAML, the SDK's JSON Schema validator, Unicode's confusables, the
// cross-process run lock) stay out of the modules dist/server.js imports at start, in dist/lib/, loaded on first use,
// and each of those loads.
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';

const DIST = path.resolve('dist');

/** Every module dist/server.js imports statically, transitively (dynamic import() is not followed). */
function startGraph(): Map<string, string> {
  const seen = new Map<string, string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    const text = fs.readFileSync(file, 'utf8');
    seen.set(file, text);
    for (const m of text.matchAll(/(?:^|[;}\s])(?:import|export)\s*(?:[\w*{}\s,$]+from\s*)?["'](\.[^"']+)["']/g)) {
      visit(path.resolve(path.dirname(file), m[1] as string));
    }
  };
  visit(path.join(DIST, 'server.js'));
  return seen;
}

describe('the bundle at start', () => {
  it('imports none of the libraries kept for first use, and ships each in dist/lib', () => {
    expect(fs.existsSync(path.join(DIST, 'server.js')), 'run npm run build first').toBe(true);
    const graph = startGraph();
    expect(graph.size).toBeGreaterThan(1);
    const all = [...graph.values()].join('\n');
    // A marker from ajv's own code: the SDK's shim imported it at start before src/sdk-shims.ts.
    // And a letter of Unicode's confusables table (Lisu ꓐ, which reads as B), as the bundle spells it.
    const markers = { ajv: 'Ajv2020', confusables: ['\\uA4D0', 'ꓐ'] };
    expect(all).not.toContain(markers.ajv);
    // zod's Indonesian messages: importing zod's `z` object (`import { z } from 'zod'`) rather than the module
    // namespace (`import * as z`) kept all of zod, every locale included, in the start: 40% of its bytes.
    expect(all.includes('Input tidak valid'), "all of zod is in the start: import it as `import * as z from 'zod'`").toBe(false);
    for (const m of markers.confusables) expect(all).not.toContain(m);
    // A message of proper-lockfile's own (its graceful-fs patches fs as it loads).
    const lockMarker = 'Unable to update lock within the stale threshold';
    expect(all.includes(lockMarker), 'proper-lockfile is in the start').toBe(false);
    expect(all).toContain('sdkShims');
    // Each loads (a real run met a dist/lib file that did not compile, only when a page was first fenced).
    const load = createRequire(import.meta.url);
    for (const lib of ['tldts', 'yaml', 'sdkShims', 'properLockfile']) expect(() => load(path.join(DIST, 'lib', `${lib}.cjs`)), lib).not.toThrow();
    expect(fs.readFileSync(path.join(DIST, 'lib', 'sdkShims.cjs'), 'utf8')).toContain(markers.ajv);
    expect(fs.readFileSync(path.join(DIST, 'lib', 'properLockfile.cjs'), 'utf8')).toContain(lockMarker);
    expect((load(path.join(DIST, 'lib', 'confusables.json')) as Record<string, string>)['ꓐ']).toBe('B');
  });
});
