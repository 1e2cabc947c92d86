import { readFileSync } from 'node:fs';
import { extractReadable } from '../src/fetch/extract.ts';
for (const f of process.argv.slice(2)) {
const r = extractReadable(readFileSync(f,'utf8'), 'text/html', 'http://git-scm.com/docs/x');
console.log(f, r.method, r.markdown.length, (r.markdown.match(/^#+ .*/gm) ?? []).slice(0,30).join(' | '));
}
