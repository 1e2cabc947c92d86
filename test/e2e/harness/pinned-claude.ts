// The end-to-end tests need the pinned Claude Code in .ci/tools. From a fresh clone it is not there yet, so
// the suite's global setup installs it (through .ci/install-claude.sh, from the npm registry) rather than
// failing every test with a request to install it by hand.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface PinnedClaude {
  claude: string;
  pinned: string;
  /** Installs the pinned version; throws when it cannot. */
  install: () => void;
}

/** The version `claude --version` reports, or undefined when the binary is missing or does not run. */
export function versionOf(claude: string): string | undefined {
  if (!fs.existsSync(claude)) return undefined;
  try {
    return execFileSync(claude, ['--version'], { encoding: 'utf8', timeout: 60_000, stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

/** Installs the pinned Claude Code unless it is already there; returns what it did, for the log. */
export function ensurePinnedClaude(o: PinnedClaude): 'present' | 'installed' {
  if (versionOf(o.claude)?.startsWith(`${o.pinned} `)) return 'present';
  try {
    o.install();
  } catch (err) {
    throw new Error(`could not install the pinned Claude Code ${o.pinned} into ${path.dirname(path.dirname(path.dirname(o.claude)))}: ${(err as Error).message.split('\n')[0]}. Run \`bash .ci/install-claude.sh\` to see why.`);
  }
  const now = versionOf(o.claude);
  if (!now?.startsWith(`${o.pinned} `)) throw new Error(`after the install, ${o.claude} reports ${now ?? 'nothing'}, not the pinned ${o.pinned}`);
  return 'installed';
}
