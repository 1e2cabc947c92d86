// The investigate procedure checks every fetched page for drift before extracting from it (SPEC 4.1 drift).
// A fact from a page its thread never checked is recorded all the same, with a warning that says which:
// trial 45's model checked 3 of its 7 pages and nothing told it.

/**
 * One warning for the facts (1-based, in input order) whose page this thread has not checked, grouped by
 * source id; none when the thread keeps no record of its checks (a run begun before they were kept).
 */
export function uncheckedPageWarning(factKeys: readonly string[], checked: readonly string[] | undefined, sourceIdOf: (key: string) => string | undefined): string | undefined {
  if (checked === undefined) return undefined;
  const done = new Set(checked);
  const bySource = new Map<string, number[]>();
  factKeys.forEach((key, i) => {
    const id = sourceIdOf(key);
    if (id === undefined || done.has(key)) return;
    bySource.set(id, [...(bySource.get(id) ?? []), i + 1]);
  });
  if (bySource.size === 0) return undefined;
  const parts = [...bySource].map(([id, facts]) => `${facts.length === 1 ? 'fact' : 'facts'} ${spans(facts)} (${id})`);
  const many = bySource.size > 1;
  return `${parts.join('; ')}: this thread has not called check_drift on ${many ? 'these pages' : 'this page'} (recorded as given); call it after each fetch_source and before extracting, as a page about something else is set aside`;
}

/** Ascending numbers with runs of three or more as ranges: 1–20, 23 (trial 49 was listed twenty numbers). */
function spans(numbers: readonly number[]): string {
  const out: string[] = [];
  for (let i = 0; i < numbers.length; ) {
    let j = i;
    while (j + 1 < numbers.length && numbers[j + 1] === (numbers[j] as number) + 1) j++;
    if (j - i >= 2) out.push(`${numbers[i]}–${numbers[j]}`);
    else for (let k = i; k <= j; k++) out.push(String(numbers[k]));
    i = j + 1;
  }
  return out.join(', ');
}
