// The server entry in a TOML config (Codex CLI's config.toml) as a marked block of text: appended at the end,
// where a new table is always valid TOML, checked by parsing the result, and taken out again as exactly the
// bytes that went in. The user's own tables, comments and formatting are never rewritten.
import { parse } from 'smol-toml';

export const BLOCK_BEGIN = '# >>> deep-research: written by "deep-research install"; "deep-research uninstall" removes this block';
export const BLOCK_END = '# <<< deep-research';

export class TomlEditError extends Error {}

/** A TOML basic string; JSON's escapes are a subset of TOML's. */
function str(s: string): string {
  return JSON.stringify(s);
}

/** The block that registers `name` with the given command, args and forwarded environment variables. */
export function serverBlock(name: string, command: string, args: string[], envVars: string[], env?: Record<string, string>): string {
  const key = /^[A-Za-z0-9_-]+$/.test(name) ? name : str(name);
  return [
    BLOCK_BEGIN,
    `[mcp_servers.${key}]`,
    `command = ${str(command)}`,
    `args = [${args.map(str).join(', ')}]`,
    `env_vars = [${envVars.map(str).join(', ')}]`,
    ...(env ? [`env = { ${Object.entries(env).map(([k, v]) => `${k} = ${str(v)}`).join(', ')} }`] : []),
    BLOCK_END,
    '',
  ].join('\n');
}

export function parseToml(text: string, file: string): Record<string, unknown> {
  try {
    return parse(text) as Record<string, unknown>;
  } catch (err) {
    const why = err instanceof Error ? err.message.split('\n')[0] : String(err);
    throw new TomlEditError(`${file} is not valid TOML (${why}): fix it, then run the command again.`);
  }
}

/** The `mcp_servers.<name>` table of a parsed config, if any. */
export function serverTable(doc: Record<string, unknown>, name: string): unknown {
  const servers = doc.mcp_servers;
  if (servers === null || typeof servers !== 'object') return undefined;
  return (servers as Record<string, unknown>)[name];
}

/** What appending added: the separator before the block, and the block. */
export interface BlockInsertion {
  chunk: string;
  block: string;
}

export function appendBlock(text: string, block: string): { text: string; insertion: BlockInsertion } {
  const sep = text === '' ? '' : text.endsWith('\n') ? '\n' : '\n\n';
  const chunk = sep + block;
  return { text: text + chunk, insertion: { chunk, block } };
}

/**
 * Takes the block out again. With the separator still in place the result is the text before the
 * insertion, byte for byte; otherwise only the block goes. Undefined when the block is not there intact.
 */
export function removeBlock(text: string, insertion: BlockInsertion): string | undefined {
  const at = text.lastIndexOf(insertion.chunk);
  if (at !== -1) return text.slice(0, at) + text.slice(at + insertion.chunk.length);
  const b = text.lastIndexOf(insertion.block);
  if (b !== -1) return text.slice(0, b) + text.slice(b + insertion.block.length);
  return undefined;
}

/** True when the text still holds a block with our markers (intact or edited). */
export function hasBlockMarkers(text: string): boolean {
  return text.includes(BLOCK_BEGIN);
}
