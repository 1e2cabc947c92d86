// Generates targets/{gemini,codex,opencode}/ from commands/, agents/ and skills/ (the Claude Code source).
//   tsx scripts/generate-targets.ts           write the files
//   tsx scripts/generate-targets.ts --check   exit 1 when the committed files differ from a fresh generation
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GenerateError } from '../src/cli/generate/index.js';
import { diffTargets, writeTargets } from '../src/cli/generate/files.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');
try {
  const drift = check ? diffTargets(root) : writeTargets(root);
  const lines = [
    ...drift.missing.map((f) => `${check ? 'missing' : 'wrote'}   ${f}`),
    ...drift.changed.map((f) => `${check ? 'differs' : 'updated'} ${f}`),
    ...drift.extra.map((f) => `${check ? 'extra' : 'removed'}   ${f}`),
  ];
  for (const l of lines) console.log(l);
  if (check && lines.length > 0) {
    console.error('targets/ is out of date with commands/, agents/ and skills/: run `npx tsx scripts/generate-targets.ts` and commit targets/.');
    process.exitCode = 1;
  } else if (lines.length === 0) {
    console.log('targets/ is up to date');
  }
} catch (err) {
  if (!(err instanceof GenerateError)) throw err;
  console.error(`generate-targets: ${err.message}`);
  process.exitCode = 1;
}
