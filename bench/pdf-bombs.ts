// PDF bombs in a row (issue 19): RSS after 60 bombs against RSS after the first. Each bomb is about 1 MB
// that inflates to 1 GiB; before the fix each one left the server 30-200 MiB larger.
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { goalRow, type Section } from './report.js';
import { REPO } from './targets.js';

const BOMBS = 60;

export async function pdfBombs(): Promise<Section> {
  const section: Section = { name: 'pdf-bombs', title: 'PDF bombs in a row', rows: [], notes: [] };
  const child = spawnSync(process.execPath, ['--import', 'tsx', path.join(REPO, 'bench', 'pdf-bombs-child.ts'), String(BOMBS)], { cwd: REPO, encoding: 'utf8', timeout: 600_000 });
  const line = child.stdout.trim().split('\n').pop() ?? '';
  const r = JSON.parse(line) as { bytes: number; bombs: number; refused: number; first: number; last: number; maxMs: number };
  const mib = (x: number) => `${x.toFixed(0)} MiB`;
  section.rows.push(
    goalRow(`PDF bombs: RSS growth from the 1st to the ${BOMBS}th (1 MB → 1 GiB each)`, r.last - r.first, { max: 50, format: mib }, { goalText: '≤ 50 MiB' }),
    goalRow(`PDF bombs: refused with a clear message`, r.bombs - r.refused, { max: 0, format: (x) => `${r.bombs - x} of ${r.bombs}` }, { goalText: `${r.bombs} of ${r.bombs}` }),
  );
  section.notes.push(
    `${BOMBS} generated bombs of ${(r.bytes / 1e6).toFixed(2)} MB read one after another by readPdf in one process: RSS ${mib(r.first)} after the first, ${mib(r.last)} after the last; slowest refusal ${r.maxMs.toFixed(0)} ms.`,
  );
  return section;
}
