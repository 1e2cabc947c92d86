// `npm run demo` (npx tsx demo/run.ts): a whole research run with no API key and no agent CLI.
// A SCRIPTED REPLAY, not a model: see demo/demo.ts and demo/policy/. Prints what it wrote, the
// verify_report result and the time.
import * as path from 'node:path';
import { DEADLINE_MS, parseArgs, runDemo } from './demo.js';
import { fourDayWeek } from './scenario.js';

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const timer = setTimeout(() => {
    process.stderr.write(`demo: no result after ${DEADLINE_MS / 1000} s; giving up\n`);
    process.exit(1);
  }, DEADLINE_MS);
  timer.unref();
  process.stdout.write(
    'deep-research demo: a SCRIPTED REPLAY. No model and no API key: a scripted policy follows the commands and\n' +
      'obeys every tool reply; the MCP server (dist/server.js) decides each step and writes each file.\n\n',
  );
  const r = await runDemo(o);
  const rel = path.relative(o.cwd, r.runDir) || '.';
  const shown = r.files.filter((f) => !f.startsWith('state/'));
  const byRole = (role: string) => r.outcomes.filter((x) => x.role === role);
  const out = [
    `Question: ${fourDayWeek.question}`,
    `Run: ${rel}/`,
    ...shown.map((f) => `  ${f}`),
    `  state/ (${r.files.length - shown.length} files of machine state)`,
    `verify_report: ${r.verify.ok ? 'ok' : `FAILED ${r.verify.problems}`} (${r.verify.citations} citations checked; ${r.verify.supported} of ${r.verify.pairs} claim-source pairs SUPPORTED by the audit)`,
    `Conversations: 1 orchestrator, ${byRole('investigator').length} investigators, ${byRole('auditor').length} auditors; ${r.toolCalls} tool calls`,
    `Fixture web: ${[...r.fetches.values()].reduce((a, b) => a + b, 0)} requests for ${r.fetches.size} pages (each page fetched at most once: ${[...r.fetches.values()].every((n) => n <= 1) ? 'yes' : 'no'})`,
    `Time: ${(r.ms / 1000).toFixed(1)} s`,
    '',
    r.final,
    '',
    `The run is in ${rel}/${o.replace ? ' (ignored by git; the next `npm run demo` replaces it)' : ''}.`,
    `Open first: ${rel}/report.md (the answer; every citation checked). Then, in the same folder: audit.md (each claim–source`,
    'pair with its verdict and passage), thread-completion-*.md (why each thread stopped, its facts and sources),',
    'micro-report-*.md (one per round) and critique.md.',
  ];
  process.stdout.write(`${out.join('\n')}\n`);
  if (!r.verify.ok) process.exitCode = 1;
}

main().catch((err: unknown) => {
  process.stderr.write(`demo: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
