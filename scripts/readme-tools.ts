// Generates the README's tool table from the live tool list, so the README cannot drift from the code.
// `tsx scripts/readme-tools.ts` rewrites README.md; `--check` exits 1 when it is stale.
import * as fs from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createServer } from '../src/create-server.js';

export async function toolTable(): Promise<string> {
  const server = createServer({ artifactsRoot: '/nonexistent-artifacts-root', env: { DEEP_RESEARCH_LOG: 'off' } });
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'readme', version: '1' });
  await Promise.all([server.connect(a), client.connect(b)]);
  const { tools } = await client.listTools();
  await client.close();
  const rows = tools.map((t) => {
    const first = (t.description ?? '').split(/(?<=\.)\s/)[0] ?? '';
    const required = (t.inputSchema.required ?? []).map((r) => `\`${r}\``).join(', ');
    const kind = t.annotations?.readOnlyHint ? 'read-only' : t.annotations?.openWorldHint ? 'network' : 'writes';
    return `| \`${t.name}\` | ${required} | ${kind} | ${first.replace(/\|/g, '\\|')} |`;
  });
  return ['| Tool | Required input | Effect | What it does |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

export function spliceReadme(readme: string, table: string): string {
  const start = '<!-- tools:start -->';
  const end = '<!-- tools:end -->';
  const i = readme.indexOf(start);
  const j = readme.indexOf(end);
  if (i < 0 || j < i) throw new Error('README.md lacks the <!-- tools:start --> / <!-- tools:end --> markers');
  return `${readme.slice(0, i + start.length)}\n${table}\n${readme.slice(j)}`;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop() ?? '')) {
  const readme = fs.readFileSync('README.md', 'utf8');
  const next = spliceReadme(readme, await toolTable());
  if (process.argv.includes('--check')) {
    if (next !== readme) {
      console.error('README.md tool table is stale: run npx tsx scripts/readme-tools.ts');
      process.exit(1);
    }
  } else fs.writeFileSync('README.md', next);
}
