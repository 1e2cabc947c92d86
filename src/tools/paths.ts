// Every path a reply carries has one base (SPEC 5.1): the server's working directory when the artifacts
// root lies inside it, else absolute. A model that is handed one path relative to the project and another
// relative to artifacts/ opens the wrong file; one rule, applied here only, keeps every reply openable.
import * as path from 'node:path';
import type { ToolContext } from './context.js';

/** The reply form of a file (or, without a name, the folder) of a run. */
export function replyPath(ctx: ToolContext, runId: string, name?: string): string {
  const dir = ctx.store.runDir(runId);
  const abs = name === undefined ? dir : path.join(dir, ...name.split('/'));
  const rel = path.relative(ctx.cwd, abs);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return abs;
  return rel.split(path.sep).join('/');
}
