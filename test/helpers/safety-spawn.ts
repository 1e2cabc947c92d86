// Bundles test/helpers/safety-child.ts with esbuild (a bundle starts faster than tsx compiling on the fly)
// into a temp folder, with a copy of templates/ beside it so the report writers find their templates,
// and spawns it with a JSON config.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { build } from 'esbuild';
// @ts-expect-error: a plain .mjs build script, without types.
import { buildLazyLibraries, LAZY_LIBRARIES_DEFINE } from '../../scripts/lazy-libraries.mjs';

let bundled: Promise<string> | undefined;
let bundleDir: string | undefined;

/** Removes the bundle (~7 MB); call from afterAll once no child is running. */
export function removeChildBundle(): void {
  if (bundleDir) fs.rmSync(bundleDir, { recursive: true, force: true });
  bundleDir = undefined;
  bundled = undefined;
}

export function childBundle(): Promise<string> {
  bundled ??= (async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dr-safety-child-'));
    bundleDir = dir;
    // Split so the fetch stack (behind a dynamic import) loads only if a child fetches.
    await build({
      entryPoints: [path.resolve('test/helpers/safety-child.ts')],
      outdir: dir,
      outExtension: { '.js': '.mjs' },
      splitting: true,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      logLevel: 'error',
      banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
      define: LAZY_LIBRARIES_DEFINE,
    });
    // Beside the bundle, as in dist/: the templates, and the libraries loaded on first use.
    fs.cpSync(path.resolve('templates'), path.join(dir, 'templates'), { recursive: true });
    await buildLazyLibraries(path.join(dir, 'lib'));
    return path.join(dir, 'safety-child.mjs');
  })();
  return bundled;
}

export interface Child {
  proc: ChildProcessWithoutNullStreams;
  lines: Record<string, any>[];
  stderr: () => string;
  /** Resolves with the first emitted line matching pred. */
  waitFor: (pred: (l: Record<string, any>) => boolean, timeoutMs?: number) => Promise<Record<string, any>>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export async function spawnChild(config: Record<string, unknown>): Promise<Child> {
  const bundle = await childBundle();
  const proc = spawn(process.execPath, [bundle, JSON.stringify(config)], {
    env: { ...process.env, DEEP_RESEARCH_LOG: 'off' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const lines: Record<string, any>[] = [];
  const waiters: { pred: (l: Record<string, any>) => boolean; resolve: (l: Record<string, any>) => void }[] = [];
  let buf = '';
  let err = '';
  proc.stdout.on('data', (d) => {
    buf += String(d);
    let i: number;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      if (!line.trim()) continue;
      let msg: Record<string, any>;
      try {
        msg = JSON.parse(line);
      } catch {
        msg = { unparsed: line };
      }
      lines.push(msg);
      for (const w of [...waiters]) {
        if (w.pred(msg)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(msg);
        }
      }
    }
  });
  proc.stderr.on('data', (d) => (err += String(d)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const waitFor = (pred: (l: Record<string, any>) => boolean, timeoutMs = 20_000) =>
    new Promise<Record<string, any>>((resolve, reject) => {
      const hit = lines.find(pred);
      if (hit) return resolve(hit);
      const timer = setTimeout(() => reject(new Error(`child: timed out; lines ${JSON.stringify(lines.slice(-5))}; stderr ${err.slice(-2000)}`)), timeoutMs);
      const fatal = lines.find((l) => l.fatal);
      if (fatal) return reject(new Error(`child failed: ${fatal.fatal}`));
      waiters.push({
        pred: (l) => {
          if (l.fatal) {
            clearTimeout(timer);
            reject(new Error(`child failed: ${l.fatal}`));
            return true;
          }
          return pred(l);
        },
        resolve: (l) => {
          clearTimeout(timer);
          resolve(l);
        },
      });
      void exited.then(({ code, signal }) => {
        clearTimeout(timer);
        if (!lines.some(pred)) reject(new Error(`child exited (${code ?? signal}) early; stderr ${err.slice(-2000)}; last ${JSON.stringify(lines.slice(-3))}`));
      });
    });
  return { proc, lines, stderr: () => err, waitFor, exited };
}
