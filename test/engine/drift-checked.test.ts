import { describe, expect, it } from 'vitest';
import { uncheckedPageWarning } from '../../src/engine/drift-checked.js';

const ids: Record<string, string> = { 'a.org/1': 'S1', 'b.org/2': 'S2', 'c.org/3': 'S3' };
const idOf = (k: string) => ids[k];

describe('uncheckedPageWarning', () => {
  it('names the facts and sources of pages the thread did not check, grouped by source', () => {
    expect(uncheckedPageWarning(['a.org/1', 'b.org/2', 'b.org/2', 'c.org/3'], ['a.org/1'], idOf)).toBe(
      'facts 2, 3 (S2); fact 4 (S3): this thread has not called check_drift on these pages (recorded as given); call it after each fetch_source and before extracting, as a page about something else is set aside',
    );
    expect(uncheckedPageWarning(['b.org/2'], [], idOf)).toMatch(/^fact 1 \(S2\): this thread has not called check_drift on this page/);
  });
  it('gives a run of three or more facts as a range', () => {
    const keys = [...Array.from({ length: 20 }, () => 'b.org/2'), 'a.org/1', 'b.org/2', 'b.org/2', 'c.org/3', 'b.org/2'];
    expect(uncheckedPageWarning(keys, ['a.org/1'], idOf)).toMatch(/^facts 1–20, 22, 23, 25 \(S2\); fact 24 \(S3\): /);
  });

  it('says nothing when every page was checked, for a page not stored, or for a thread that keeps no record', () => {
    expect(uncheckedPageWarning(['a.org/1', 'b.org/2'], ['a.org/1', 'b.org/2'], idOf)).toBeUndefined();
    expect(uncheckedPageWarning(['x.org/9'], [], idOf)).toBeUndefined();
    expect(uncheckedPageWarning(['a.org/1'], undefined, idOf)).toBeUndefined();
  });
});
