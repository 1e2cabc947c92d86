import * as fs from 'node:fs';
import { extractReadable } from '../src/fetch/extract.js';
const r = extractReadable(fs.readFileSync(process.argv[2]!, 'utf8'), 'text/html', 'https://x/a.html');
console.log(r.method, r.kept, r.leftOut);
console.log(r.markdown.slice(0, Number(process.argv[3] ?? 3000)));
