// The temp roots of one `npm test` run, made by the global setup and handed to every test file through
// the environment; the teardown fails the run when anything is left in them.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const RUN_TMP = 'DEEP_RESEARCH_TEST_TMP';
/** On tmpfs (/dev/shm), for the safety sandboxes that ask for memory; unset where there is none. */
export const RUN_SHM = 'DEEP_RESEARCH_TEST_SHM';

export function makeRunRoots(env: NodeJS.ProcessEnv = process.env): string[] {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'deep-research-tests-'));
  env[RUN_TMP] = tmp;
  const roots = [tmp];
  if (writable('/dev/shm')) {
    const shm = fs.mkdtempSync(path.join('/dev/shm', 'deep-research-tests-'));
    env[RUN_SHM] = shm;
    roots.push(shm);
  }
  return roots;
}

/**
 * Removes the run's roots; throws, naming them, when a test file's root or anything else was still
 * there: a file that did not end (its clean-up never ran) or a process that wrote after its file ended.
 */
export function removeRunRoots(roots: readonly string[]): void {
  const left = roots.flatMap((r) => (fs.existsSync(r) ? fs.readdirSync(r).map((n) => path.join(r, n)) : []));
  for (const r of roots) fs.rmSync(r, { recursive: true, force: true, maxRetries: 3 });
  if (left.length > 0) {
    throw new Error(`the test run left ${left.length} temp folder${left.length === 1 ? '' : 's'} behind (now removed): ${left.slice(0, 10).join(', ')}`);
  }
}

function writable(dir: string): boolean {
  try {
    fs.accessSync(dir, fs.constants.W_OK);
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
