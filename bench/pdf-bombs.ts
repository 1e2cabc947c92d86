// PDF bombs in a row (issues 19 and 27): RSS after 60 bombs of each filter kind against RSS after the
// first. Each bomb is at most about 1 MB that decodes to 1 GiB; before issue 19 each Flate bomb left the
// server 30-200 MiB larger, and before issue 27 bombs behind RunLength or LZW still did.
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { goalRow, type Section } from './report.js';
import { REPO } from './targets.js';

const BOMBS = Number(process.env.BENCH_PDF_BOMBS ?? 60);

export async function pdfBombs(): Promise<Section> {
  const section: Section = { name: 'pdf-bombs', title: 'PDF bombs in a row', rows: [], notes: [] };
  const child = spawnSync(process.execPath, ['--import', 'tsx', path.join(REPO, 'bench', 'pdf-bombs-child.ts'), String(BOMBS)], { cwd: REPO, encoding: 'utf8', timeout: 900_000 });
  const line = child.stdout.trim().split('\n').pop() ?? '';
  const r = JSON.parse(line) as { bombs: number; first: number; kinds: { kind: string; bytes: number; refused: number; last: number; maxMs: number }[] };
  const mib = (x: number) => `${x.toFixed(0)} MiB`;
  const total = r.kinds.length * r.bombs;
  const refused = r.kinds.reduce((n, k) => n + k.refused, 0);
  const last = r.kinds[r.kinds.length - 1]?.last ?? r.first;
  section.rows.push(
    goalRow(`PDF bombs: RSS growth from the 1st to the ${total}th (${r.bombs} of each of ${r.kinds.length} filter kinds, ≤ 1 MB → 1 GiB each)`, last - r.first, { max: 50, format: mib }, { goalText: '≤ 50 MiB' }),
    goalRow(`PDF bombs: refused with a clear message`, total - refused, { max: 0, format: (x) => `${total - x} of ${total}` }, { goalText: `${total} of ${total}` }),
  );
  let prev = r.first;
  section.notes.push(
    `${r.bombs} generated bombs of each kind read one after another by readPdf in one process, RSS ${mib(r.first)} after the first: ` +
      r.kinds
        .map((k) => {
          const note = `${k.kind} (${(k.bytes / 1e6).toFixed(2)} MB) ${k.refused}/${r.bombs} refused, RSS ${mib(k.last)} after its last (${k.last - prev >= 0 ? '+' : ''}${(k.last - prev).toFixed(0)} MiB), slowest ${k.maxMs.toFixed(0)} ms`;
          prev = k.last;
          return note;
        })
        .join('; ') +
      '.',
  );
  return section;
}
