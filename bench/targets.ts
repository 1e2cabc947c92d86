// What the bench measures: our bundled server as a CLI spawns it, and the reference server.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface Target {
  label: string;
  entry: string;
  present: boolean;
}

/** dist/server.js as committed (the bench never rebuilds); DEEP_RESEARCH_BENCH_SERVER may point elsewhere. */
export function ourServer(): Target {
  const override = process.env.DEEP_RESEARCH_BENCH_SERVER;
  const entry = path.resolve(REPO, override ?? 'dist/server.js');
  const label = override ? `${entry} (DEEP_RESEARCH_BENCH_SERVER)` : path.relative(REPO, entry);
  return { label, entry, present: fs.existsSync(entry) };
}

/** The official filesystem server, a devDependency: the reference for start-up and tool-list size. */
export function referenceServer(): Target & { version: string } {
  const dir = path.join(REPO, 'node_modules', '@modelcontextprotocol', 'server-filesystem');
  const entry = path.join(dir, 'dist', 'index.js');
  let version = '?';
  try {
    version = (JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    // reported as absent below
  }
  return { label: `@modelcontextprotocol/server-filesystem ${version}`, entry, present: fs.existsSync(entry), version };
}
