// bench/judge-truth.ts: the independent judge's table as ground truth for pair context (issue 17).
import { describe, expect, it } from 'vitest';
import { alignRows, evidenceOf, holds, parseJudgeTable } from '../../bench/judge-truth.js';
import type { Pair } from '../../src/engine/statements.js';

const TABLE = [
  '| # | Statement (abridged) | Src | Label | Reason / passage relied on |',
  '|---|---|---|---|---|',
  '| 1 | urllib uses the global default unless given a timeout | S1 | SUPPORTED | S1 L3: "(if not specified, the global default timeout setting will be used)" |',
  '| 2 | requests: "By default, requests do not time out unless a timeout value is set explicitly." | S2 | SUPPORTED | Verbatim at S2 L4 |',
  '| 3 | keep-alive is automatic within a session | S2 | SUPPORTED | S2 L5 |',
  '| 4 | the same default again | S1 | SUPPORTED | Same passage as #1. |',
  '| 5 | reads config then config.worktree | S1 | SUPPORTED | "by default "git config" reads from both "config" and "config.worktree" … in that order" |',
].join('\n');

const pair = (statement: string, source_id: string): Pair => ({ pair_id: statement, line: 1, statement, source_id, context: { sentence: statement } });

describe('judge truth', () => {
  const rows = parseJudgeTable(TABLE);

  it('reads quotes, a verbatim statement, line references and references to other rows', () => {
    expect(rows.map((r) => r.n)).toEqual([1, 2, 3, 4, 5]);
    expect(evidenceOf(rows[0]!, rows, undefined)).toEqual({ quotes: ['(if not specified, the global default timeout setting will be used)'], lines: { source: 'S1', lines: [[3, 3]] } });
    const p2 = pair('requests has none: "By default, requests do not time out unless a timeout value is set explicitly."', 'S2');
    expect(evidenceOf(rows[1]!, rows, p2)?.quotes).toEqual(['By default, requests do not time out unless a timeout value is set explicitly.']);
    expect(evidenceOf(rows[2]!, rows, undefined)).toEqual({ quotes: [], lines: { source: 'S2', lines: [[5, 5]] } });
    expect(evidenceOf(rows[3]!, rows, undefined)?.quotes).toEqual(evidenceOf(rows[0]!, rows, undefined)?.quotes);
  });

  it('holds: most of a quote in order (pieces of a quote broken by inner quotation marks too), or a run of a cited line', () => {
    const e1 = evidenceOf(rows[0]!, rows, undefined)!;
    const none = () => undefined;
    expect(holds('The optional timeout (if not specified, the global default timeout setting will be used) applies.', e1, none)).toBe(true);
    expect(holds('The global default is None. A timeout may be specified.', e1, none)).toBe(false);
    const e5 = evidenceOf(rows[4]!, rows, undefined)!;
    expect(holds('If set, by default "git config" reads from both "config" and "config.worktree" file in that order.', e5, none)).toBe(true);
    const lines = ['---', 'x', 'y', 'z', 'Excellent news: keep-alive is 100% automatic within a session! Any requests reuse the connection.'];
    const e3 = evidenceOf(rows[2]!, rows, undefined)!;
    expect(holds('thanks to urllib3, keep-alive is 100% automatic within a session! Any requests', e3, () => lines)).toBe(true);
    expect(holds('keep-alive is automatic', e3, () => lines)).toBe(false);
  });

  it('aligns rows with pairs of the same source by the words of the abridged statement, in order', () => {
    const pairs = [
      pair('urllib.request uses the global socket default unless `urlopen()` is given a timeout', 'S1'),
      pair('a topic the judge skipped', 'S9'),
      pair('requests has none', 'S2'),
      pair('keep-alive is 100% automatic within a session', 'S2'),
    ];
    const aligned = alignRows(rows.slice(0, 3), pairs);
    expect(aligned.map((a) => [a.row.n, pairs.indexOf(a.pair)])).toEqual([[1, 0], [3, 3]]);
  });
});
