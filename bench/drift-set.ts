// Builds the labelled set of bench/drift/ (issue 24 item 4) from Debian documentation packages: each page's
// main text as fetch_source would store it (the same extraction; PDFs through the same reader), the first
// PAGE_CHARS characters kept to keep the repository small. Run once on a machine with the packages:
//   tsx bench/drift-set.ts          (python3.11-doc, python-requests-doc, python-aiohttp-doc, git-doc,
//                                    debian-policy, r-doc-pdf)
// The labels and thread definitions are in bench/drift/set.json, written by hand; this only copies pages.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractReadable } from '../src/fetch/extract.js';
import { readPdf } from '../src/fetch/pdf/read.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PAGE_CHARS = 6000;
const DOC = '/usr/share/doc';

interface Page {
  name: string;
  file: string;
  url: string;
  package: string;
  licence: string;
}
const set = JSON.parse(fs.readFileSync(path.join(HERE, 'drift', 'set.json'), 'utf8')) as { pages: Page[] };

/** Cut at the last paragraph end before the cap, so a page ends on whole text. */
function cap(text: string): string {
  if (text.length <= PAGE_CHARS) return text;
  const cut = text.lastIndexOf('\n\n', PAGE_CHARS);
  return text.slice(0, cut > PAGE_CHARS / 2 ? cut : PAGE_CHARS).trimEnd();
}

for (const p of set.pages) {
  const file = path.join(DOC, p.file);
  let title: string;
  let text: string;
  if (file.endsWith('.pdf')) {
    const r = await readPdf(new Uint8Array(fs.readFileSync(file)), p.url);
    if (!r.ok) throw new Error(`${p.file}: ${r.message}`);
    title = r.title ?? p.name;
    text = r.markdown.replace(/<!-- page \d+ -->\n?/g, '');
  } else if (file.endsWith('.txt')) {
    text = fs.readFileSync(file, 'utf8');
    title = text.split('\n')[0]?.trim() ?? p.name;
  } else {
    const e = extractReadable(fs.readFileSync(file, 'utf8'), 'text/html', p.url);
    title = e.title;
    text = e.markdown;
  }
  fs.writeFileSync(path.join(HERE, 'drift', 'pages', `${p.name}.md`), `${title}\n\n${cap(text)}\n`);
  console.log(p.name, text.length);
}
process.exit(0);
