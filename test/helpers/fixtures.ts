// Briefs and stored sources for tests. Sources are seeded through the store's internal API, as the
// engine issue asks; fetching is tested separately against a local HTTP server.
import { RunStore } from '../../src/store/run-store.js';
import { canonicalKey } from '../../src/engine/canonical-url.js';

export const QUESTION = 'Is the four-day work week net-positive for output?';

export function brief(extra: Record<string, unknown> = {}) {
  return {
    threads: [
      {
        name: 'Trials and output',
        sub_questions: [
          { id: 'SQ-1', question: 'What happened to productivity in four-day week trials?' },
          { id: 'SQ-2', question: 'Which sectors were measured?' },
        ],
        subjects: ['Iceland trial', 'UK pilot'],
      },
      {
        name: 'Counter-evidence',
        sub_questions: [{ id: 'SQ-1', question: 'Where did four-day week trials fail or reverse?' }],
        subjects: ['Utah'],
      },
    ],
    disambiguation: { include: ['four-day week', 'productivity'], exclude: ['school week'] },
    known_facts: [{ fact: 'Iceland ran public-sector trials from 2015 to 2019.', confidence: 'HIGH' }],
    ...extra,
  };
}

export const PAGE = (n: number) =>
  `# Trial report ${n}\n\nThe four-day week trial in Iceland kept productivity the same or improved it in most workplaces. ` +
  `Workers reported **less stress** and better [work-life balance](https://example.org/wlb).\n\n` +
  `## Figures\n\nOutput per hour rose by ${n}% in the pilot group, according to the report.\n`;

export async function seedSource(root: string, runId: string, url: string, markdown = PAGE(1), title = 'Trial report') {
  const store = new RunStore(root);
  const { source } = await store.addSource(runId, { url, canonical_key: canonicalKey(url), title, markdown, fetched_at: '2026-01-01T00:00:00.000Z' });
  return source;
}

/**
 * Judges every pair of the run's report SUPPORTED on its best passage, as an auditor that agrees with
 * everything would: for tests about other checks of verify_report, which needs a verdict on every pair.
 */
export async function supportAll(h: { ok: (name: string, args: Record<string, unknown>) => Promise<any> }, runId: string): Promise<number> {
  let recorded = 0;
  // A fresh auditor: passages shown to another are shown again (reshow), and one shown earlier on these pages
  // is pointed to (same_passage_as).
  const shown = new Map<string, string>();
  for (let offset: number | undefined = 0; offset !== undefined; ) {
    const page: { pairs: { pair_id: string; passages: string[]; same_passage_as?: string[] }[]; next_offset?: number } = await h.ok('audit_report', { run_id: runId, offset, reshow: true });
    for (const p of page.pairs) if (p.passages[0] !== undefined) shown.set(p.pair_id, p.passages[0]);
    const verdicts = page.pairs.flatMap((p) => {
      const passage = p.passages[0] ?? (p.same_passage_as ?? []).map((id) => shown.get(id)).find((x) => x !== undefined);
      return passage === undefined ? [] : [{ pair_id: p.pair_id, verdict: 'SUPPORTED', passage }];
    });
    if (verdicts.length) recorded += (await h.ok('record_audit', { run_id: runId, verdicts })).recorded;
    offset = page.next_offset;
  }
  return recorded;
}
