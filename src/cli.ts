#!/usr/bin/env node
// The deep-research command line: verify and lint a run folder (for CI gates), install the commands.
import { runLint } from './cli/lint.js';
import { runVerify } from './cli/verify.js';
import { VERSION } from './version.js';

const USAGE = `usage:
  deep-research verify <run-dir> [--no-audit]
                                          check report.md against stored sources and the claim audit
                                          (--no-audit: citations, quotations and hashes only)
  deep-research lint <run-dir | runs-dir> check micro-reports and completion reports against the spec
                                          (given artifacts/, every run in it)
  deep-research install [--target claude|gemini|codex|opencode] (--project <dir> | --user)
  deep-research uninstall [--target ...] (--project <dir> | --user)
  deep-research serve --http [--port N] [--host H] [--token T] [--allow-origin URL]...
                                          serve the MCP tools over Streamable HTTP (127.0.0.1:8787 by
                                          default; a non-loopback --host needs a token)
  deep-research --version`;

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
    case 'serve': {
      const { runServe } = await import('./cli/serve.js');
      return runServe(rest);
    }
    case '--version':
    case '-v':
    case 'version':
      process.stdout.write(`${VERSION}\n`);
      return 0;
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

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (err) {
  // A person reads this: one line, never a stack trace.
  const { printable } = await import('./cli/print.js');
  process.stderr.write(`deep-research: ${printable(err instanceof Error ? (err.message.split('\n')[0] ?? '') : String(err))}\n`);
  process.exitCode = 1;
}
