// `deep-research lint <run-dir>`: exit 1 when any report in the run folder breaks SPEC 6.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { lintArtifact } from '../reports/lint.js';

export function runLint(args: string[]): number {
  const dir = args[0];
  if (!dir || !fs.existsSync(dir)) {
    process.stderr.write('lint: give an existing run folder, e.g. artifacts/<run_id>\n');
    return 2;
  }
  const files = fs.readdirSync(dir).filter((f) => /^(micro-report|thread-completion)-.*\.md$/.test(f)).sort();
  let count = 0;
  for (const f of files) {
    for (const p of lintArtifact(f, fs.readFileSync(path.join(dir, f), 'utf8'))) {
      process.stdout.write(`${path.join(dir, p.file)}:${p.line}: ${p.message}\n`);
      count += 1;
    }
  }
  process.stdout.write(count === 0 ? `lint: ok (${files.length} files)\n` : `lint: ${count} problem(s) in ${files.length} files\n`);
  return count === 0 ? 0 : 1;
}
