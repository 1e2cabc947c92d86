// What a path given to `verify` or `lint` is, told in words for a person: a run folder (it holds
// state/run.json), a folder of runs (artifacts/), or neither, with what to give instead.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';

const EXAMPLE = 'artifacts/<run_id>';

export function isRunFolder(dir: string): boolean {
  return fs.existsSync(path.join(dir, 'state', 'run.json'));
}

/** The run folders directly inside `dir`, by name. */
export function runsIn(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && isRunFolder(path.join(dir, e.name)))
    .map((e) => e.name)
    .sort();
}

/** Why `given` is not a run folder, or undefined when it is one. */
export function notARunFolder(given: string | undefined): string | undefined {
  if (given === undefined || given === '') return `give a run folder, e.g. ${EXAMPLE}`;
  let stat: fs.Stats;
  try {
    stat = fs.statSync(given);
  } catch {
    return `${given} does not exist; give a run folder, e.g. ${EXAMPLE}`;
  }
  if (!stat.isDirectory()) {
    const parent = path.dirname(given);
    return isRunFolder(parent)
      ? `${given} is a file, not a run folder; give the folder that holds it: ${parent}`
      : `${given} is a file, not a run folder; give a run folder, e.g. ${EXAMPLE}`;
  }
  if (isRunFolder(given)) return undefined;
  const inside = runsIn(given);
  if (inside.length === 1) return `${given} is not a run folder but holds one; give that: ${path.join(given, inside[0]!)}`;
  if (inside.length > 1) return `${given} is not a run folder but holds ${inside.length} runs; give one of them, e.g. ${path.join(given, inside[0]!)}`;
  return `${given} is not a run folder (it has no state/run.json); give a run folder, e.g. ${EXAMPLE}`;
}

/**
 * The command's positional arguments, or a one-line refusal: an unknown option, or more arguments than
 * the command takes. Options are declared here so a misspelled one is refused, not ignored.
 */
export function positionals(
  args: string[],
  max: number,
  options: NonNullable<Parameters<typeof parseArgs>[0]>['options'] = {},
): { positionals: string[]; values: Record<string, unknown> } | string {
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (err) {
    const message = (err as Error).message;
    const unknown = /Unknown option '([^']+)'/.exec(message);
    // Node's own message goes on about '--'; the option's name is what the person needs.
    return unknown ? `unknown option ${unknown[1]}` : (message.split(/\.\s/)[0] ?? message);
  }
  if (parsed.positionals.length > max) {
    const extra = parsed.positionals.slice(max).map((a) => `"${a}"`).join(', ');
    return `takes ${max === 1 ? 'one path' : `at most ${max} arguments`}; remove ${extra}`;
  }
  return { positionals: parsed.positionals, values: parsed.values };
}
