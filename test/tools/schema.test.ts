// The public contract as a reviewed file: any change to a tool's schema, description or annotations
// shows up as a diff of test/tools/__snapshots__/tools.json (update with `npx vitest run -u`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connect, type Harness } from '../helpers/mcp.js';
import { TOOLS } from '../../src/tools/index.js';
import { TOOL_NAMES } from '../../src/tools/names.js';

let h: Harness;
let tools: Awaited<ReturnType<Harness['client']['listTools']>>['tools'];
beforeAll(async () => {
  h = await connect();
  tools = (await h.client.listTools()).tools;
});
afterAll(async () => h?.close());

const SPEC_TOOLS = ['start_run', 'start_thread', 'fetch_source', 'check_drift', 'record_round', 'thread_status', 'complete_thread', 'record_critique', 'audit_report', 'record_audit', 'verify_report', 'coverage_report', 'search_sources'];

describe('tool contract', () => {
  it('matches the committed snapshot', async () => {
    await expect(`${JSON.stringify(tools, null, 2)}\n`).toMatchFileSnapshot('./__snapshots__/tools.json');
  });

  it('exposes exactly the SPEC 5 tools', () => {
    expect(tools.map((t) => t.name).sort()).toEqual([...SPEC_TOOLS].sort());
  });

  it('names every served tool in TOOL_NAMES, which the other CLIs\' generated files allow', () => {
    expect([...TOOL_NAMES].sort()).toEqual(tools.map((t) => t.name).sort());
  });

  it.each(SPEC_TOOLS)('%s has annotations, an output schema, a contract description and no top-level union', (name) => {
    const t = tools.find((x) => x.name === name)!;
    expect(t.annotations).toBeDefined();
    expect(typeof t.annotations?.readOnlyHint).toBe('boolean');
    if (!t.annotations?.readOnlyHint) expect(typeof t.annotations?.idempotentHint).toBe('boolean');
    expect(typeof t.annotations?.openWorldHint).toBe('boolean');
    expect(t.outputSchema?.type).toBe('object');
    expect(t.inputSchema.type).toBe('object');
    expect(t.inputSchema).not.toHaveProperty('anyOf');
    expect(t.inputSchema).not.toHaveProperty('oneOf');
    expect(t.description!.length).toBeGreaterThan(120);
    expect(t.description).toMatch(/Returns/);
    expect(t.description).not.toMatch(/\bMUST\b/);
    // Names a sibling tool, so the model knows what to use instead.
    expect(SPEC_TOOLS.some((other) => other !== name && t.description!.includes(other))).toBe(true);
  });

  it('bounds every string and array in every input schema (the zod schemas calls are validated against)', () => {
    const unbounded: string[] = [];
    const walk = (s: any, where: string) => {
      if (!s || typeof s !== 'object') return;
      if (s.type === 'string' && s.maxLength === undefined && s.enum === undefined) unbounded.push(where);
      if (s.type === 'array' && s.maxItems === undefined) unbounded.push(where);
      for (const [k, v] of Object.entries(s.properties ?? {})) walk(v, `${where}.${k}`);
      if (s.items) walk(s.items, `${where}[]`);
    };
    for (const t of TOOLS) walk(z.toJSONSchema(z.object(t.config.inputSchema), { io: 'input' }), t.name);
    expect(unbounded).toEqual([]);
  });

  // 3,000 for the first nine tools; revision 2 added inputs (search_results, queries, source_hints in three
  // places) and outputs (warnings, tiers, phase_reason, sub_questions, next_definition …), about 330 tokens,
  // and the claim audit's two tools (audit_report, record_audit) about 420. Issue 17 added 84 (3,785 →
  // 3,869): uncited sentences (source_id null, context, passage_sources, source_id in a verdict, uncited),
  // record_audit's unaudited_pairs and cite, start_run's critic_threads. Origins (issue 20) added 114:
  // primary_origins in two places, also, and the facts, origins, unverified_answers, origin and basis outputs.
  // fetch_source's `full` input and `kept`/`left_out` outputs (issue 16) added 44. The reply economy (issue 23)
  // added 60: fetch_source's `thread` input and `sections`/`already_shown` outputs, audit_report's `passages`
  // input and `note`, less record_audit's unaudited_pairs; each saves far more per call than it costs once.
  // The coverage audit (issue 24) added 221: coverage_report (193), record_critique's `uncovered` kind and
  // `source_id`, and check_drift's named release. Local sources (issue 25) added 178: search_sources (147),
  // fetch_source's `path` and start_run's `local_roots`. Long PDFs (issue 24) added 68: fetch_source's
  // `pages` input and `more_pages` output, the only way to the pages of a PDF past the cap.
  it('keeps all tool definitions together within 4,592 tokens (chars/4)', () => {
    expect(Math.round(JSON.stringify(tools).length / 4)).toBeLessThanOrEqual(4592);
  });
});
