// The one way a tool answer is built. Hosts show the model one channel: Claude Code and Codex the JSON of
// structuredContent, OpenCode the text. So the text is that same JSON, and every piece of guidance lives in
// structuredContent (SPEC 11.1, reply economy). Size caps and isError live here and nowhere else.
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/server';
import * as path from 'node:path';
import { InputError } from '../errors.js';

/**
 * What one reply may carry, in each channel: the text, and `JSON.stringify(structuredContent)` (what Claude
 * Code shows the model when a result has it). Tools whose replies grow with page text fit themselves
 * under it and say where the rest continues (`next_start_index`, `next_offset`); see `replySize`.
 */
export const REPLY_CHARS = 24_000;

/** Tools ask for an annotation set by naming their effect once. */
export type Effect = 'read' | 'write' | 'write-idempotent' | 'fetch';

/** Destructive and idempotent hints only mean something for tools that write, so read tools omit them. */
export function annotationsFor(effect: Effect): ToolAnnotations {
  if (effect === 'read') return { readOnlyHint: true, openWorldHint: false };
  return {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: effect === 'write-idempotent' || effect === 'fetch',
    openWorldHint: effect === 'fetch',
  };
}

/** A tool's answer: the text content is exactly `JSON.stringify(structured)`, so both channels say the same. */
export function ok(structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
}

/**
 * A reply's size as a host shows it, in characters: the larger of the text and the structured JSON laid out
 * as the trial bridge and some hosts print it (one space of indent), which is what must stay under REPLY_CHARS.
 */
export function replySize(r: CallToolResult): number {
  const text = r.content.map((c) => (c.type === 'text' ? c.text.length : 0)).reduce((a, b) => a + b, 0);
  return Math.max(text, r.structuredContent === undefined ? 0 : JSON.stringify(r.structuredContent, null, 1).length);
}

export function fail(message: string): CallToolResult {
  return { content: [{ type: 'text', text: `Refused: ${message}` }], isError: true };
}

// What a file-system error means for the caller, in words. Its own message names the machine's
// absolute path, which no reply carries (SPEC 7).
const FS_ERRORS: Record<string, string> = {
  ENOENT: 'a file or folder it needs does not exist',
  EISDIR: 'a path names a folder where a file is needed',
  ENOTDIR: 'a path runs through a file as if it were a folder',
  ENAMETOOLONG: 'a path or file name is too long for the file system',
  ELOOP: 'a path runs through too many symlinks',
  EEXIST: 'a file already exists where one was to be made',
  ENOTEMPTY: 'a folder to be replaced is not empty',
  EACCES: 'the server is not allowed to read or write there (file permissions)',
  EPERM: 'the server is not allowed to read or write there (file permissions)',
  EROFS: 'the artifacts folder is on a read-only file system',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EMFILE: 'too many files are open at once',
  ENFILE: 'too many files are open at once',
  EBUSY: 'a file is busy',
  EIO: 'the disk reported an input/output error',
  ELOCKED: 'another session has held the run lock for too long',
  ECOMPROMISED: "the run's lock was lost while writing",
};

export interface ErrorContext {
  tool: string;
  /** The artifacts root: a path inside it is shown relative to it. */
  root: string;
  /** Files the call had already replaced, whole, before it failed. */
  written?: readonly string[];
}

/**
 * InputError becomes a refusal that teaches. Anything else is a file-system failure, put in words with
 * the path relative to the artifacts root, or a bug, reported without a stack and without the machine's
 * paths; neither is called an "internal error": the message says what happened and what to do.
 */
export function errorResult(err: unknown, where?: ErrorContext): CallToolResult {
  if (err instanceof InputError) return fail(err.message);
  const tool = where?.tool ?? 'this call';
  const e = (err ?? {}) as NodeJS.ErrnoException;
  const meaning = typeof e.code === 'string' ? FS_ERRORS[e.code] : undefined;
  if (meaning) {
    // A rename names its destination in `dest`: the file the caller knows, not our temp file.
    const target = (e as { dest?: unknown }).dest ?? e.path;
    const at = typeof target === 'string' && where ? insideRoot(target, where.root) : undefined;
    return fail(
      `${tool} could not finish: ${meaning} (${e.code}${at !== undefined ? ` at ${at === '' ? 'the artifacts folder' : `"${at}"`}` : ''}). ` +
        `${whatWasWritten(e, where)} ${e.code === 'ENOSPC' || e.code === 'EDQUOT' ? 'Free space on the disk that holds the artifacts folder, then make the same call again.' : 'Check the arguments that name files or folders, and the artifacts folder, then retry; report it if it repeats.'}`,
    );
  }
  const message = scrubPaths(err instanceof Error ? err.message : String(err), where?.root);
  return fail(`${tool} failed unexpectedly: ${message}. ${whatWasWritten(e, where)} Retry once, and report it with this message if it repeats.`);
}

/**
 * Every write is whole or not made (src/store/fs-safe.ts), but one call may make two: say which files an
 * earlier write of this call, or the failed one before it stopped, stored, so "nothing" is never untrue.
 */
function whatWasWritten(e: object, where?: ErrorContext): string {
  const files = [...(where?.written ?? []), ...(Array.isArray((e as { replaced?: unknown }).replaced) ? ((e as { replaced: string[] }).replaced) : [])];
  const names = [...new Set(files.map((f) => (where ? insideRoot(f, where.root) : undefined) ?? path.basename(f)))];
  if (names.length === 0) return 'Nothing was written for this call: every file is as it was.';
  const shown = names.slice(0, 4).map((n) => `"${n}"`).join(', ');
  return `Before it stopped it had stored ${names.length} file${names.length === 1 ? '' : 's'} whole (${shown}${names.length > 4 ? ', …' : ''}); every other file is as it was.`;
}

function insideRoot(p: string, root: string): string | undefined {
  const rel = path.relative(root, p);
  return rel.startsWith('..') || path.isAbsolute(rel) ? undefined : rel.split(path.sep).join('/');
}

/** Absolute paths out of a message: relative to the artifacts root inside it, else the last name only. */
export function scrubPaths(message: string, root?: string): string {
  let m = message;
  if (root) m = m.split(`${root}${path.sep}`).join('').split(root).join('the artifacts folder');
  return m.replace(/(?<![\w:/.\\-])(?:[A-Za-z]:)?(?:[\\/][^\s\\/'"`,;:()]+){2,}/g, (p) => `…/${p.split(/[\\/]/).pop()}`);
}
