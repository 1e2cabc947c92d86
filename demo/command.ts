// Expands a command file the way Claude Code does for `/deep-research "<question>"`: frontmatter dropped,
// $ARGUMENTS and ${CLAUDE_PLUGIN_ROOT} substituted. The in-process demo hands the result to the policy,
// exactly as the fake Messages API hands it the text Claude Code sent.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function expandCommand(args: string, o: { root?: string; file?: string } = {}): string {
  const root = o.root ?? REPO_ROOT;
  const raw = fs.readFileSync(path.join(root, 'commands', o.file ?? 'deep-research.md'), 'utf8').replace(/\r\n/g, '\n');
  const body = raw.startsWith('---\n') ? raw.slice(raw.indexOf('\n---\n', 4) + 5) : raw;
  return body.replaceAll('$ARGUMENTS', args).replaceAll('${CLAUDE_PLUGIN_ROOT}', root).trimStart();
}
