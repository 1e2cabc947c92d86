// The bundle reads local sources as the source tree does: mammoth, MiniSearch and the PDF worker load
// from dist/ over stdio, as a user's CLI runs the server.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { tempDir } from '../helpers/mcp.js';
import { makeDocx } from '../helpers/docx.js';
import { makePdf, prose } from '../helpers/pdf.js';

const BUNDLE = path.resolve('dist/server.js');

describe('local sources over stdio', () => {
  it('stores a DOCX and a PDF of an allowed folder and finds them with search_sources', async () => {
    expect(fs.existsSync(BUNDLE), 'run npm run build first').toBe(true);
    const base = fs.realpathSync(tempDir('dr-local-stdio-'));
    const docs = path.join(base, 'docs');
    fs.mkdirSync(docs);
    fs.writeFileSync(path.join(docs, 'minutes.docx'), makeDocx('Minutes', ['The board approved a budget of 4.2 million euros.', prose(1).join(' ')]));
    fs.writeFileSync(path.join(docs, 'survey.pdf'), makePdf({ pages: [['The lighthouse keeper logged forty storms in 1911.', ...prose(2)]] }));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BUNDLE],
      env: { ...process.env, DEEP_RESEARCH_ARTIFACTS: path.join(base, 'artifacts'), DEEP_RESEARCH_CACHE: path.join(base, 'cache'), DEEP_RESEARCH_LOCAL_ROOTS: `docs=${docs}`, DEEP_RESEARCH_LOG: 'off' } as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'stdio-local', version: '1' });
    await client.connect(transport);
    try {
      const call = async (name: string, args: Record<string, unknown>) => {
        const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
        expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
        return r.structuredContent as Record<string, any>;
      };
      const brief = { threads: [{ name: 'Only', sub_questions: [{ id: 'SQ-1', question: 'What did the board approve?' }], subjects: ['budget'], primary_origins: ['local:docs'] }] };
      expect((await call('start_run', { question: 'What did the board approve?', brief, dry_run: true })).local_roots).toEqual([{ origin: 'local:docs', documents: 2 }]);
      const run = await call('start_run', { question: 'What did the board approve?', brief });
      const docx = await call('fetch_source', { run_id: run.run_id, path: 'local:docs/minutes.docx', focus: 'budget' });
      expect([docx.url, docx.origin, docx.content]).toEqual(['local:docs/minutes.docx', 'local:docs', expect.stringContaining('4.2 million euros')]);
      const pdf = await call('fetch_source', { run_id: run.run_id, path: 'local:docs/survey.pdf' });
      expect([pdf.url, pdf.content_type]).toEqual(['local:docs/survey.pdf', 'pdf']);
      const found = await call('search_sources', { query: 'lighthouse storms', run_id: run.run_id });
      expect(found.results[0].url).toBe('local:docs/survey.pdf');
    } finally {
      await client.close();
      fs.rmSync(base, { recursive: true, force: true });
    }
  }, 60_000);
});
