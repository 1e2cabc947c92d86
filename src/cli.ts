#!/usr/bin/env node
// The deep-research command line: verify and lint a run folder (for CI gates), install the commands.
import { runLint } from './cli/lint.js';
import { runVerify } from './cli/verify.js';

const USAGE = `usage:
  deep-research verify <run-dir> [--no-audit]
                                          check report.md against stored sources and the claim audit
                                          (--no-audit: citations, quotations and hashes only)
  deep-research lint <run-dir>            check micro-reports and completion reports against the spec
  deep-research install [--target claude|gemini|codex|opencode] (--project <dir> | --user)
  deep-research uninstall [--target ...] (--project <dir> | --user)`;

async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  switch (cmd) {
    case 'verify':
      return runVerify(rest);
    case 'lint':
      return runLint(rest);
    case 'install':
    case 'uninstall': {
      const { runInstall } = await import('./cli/install.js');
      return runInstall(argv);
    }
    case undefined:
    case '-h':
    case '--help':
    case 'help':
      process.stdout.write(`${USAGE}\n`);
      return cmd === undefined ? 2 : 0;
    default:
      process.stderr.write(`unknown command "${cmd}"\n${USAGE}\n`);
      return 2;
  }
}

process.exitCode = await main(process.argv.slice(2));
