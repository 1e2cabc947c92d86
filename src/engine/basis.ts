// What a grounded fact rests on (SPEC 4.1 corroboration, 6 Methods): a primary source, two origins, or
// neither. Facts recorded before origins were counted have no basis to show and count as neither.

export type Basis = 'primary' | 'two origins' | 'neither';

export interface BasisCounts {
  primary: number;
  two_origins: number;
  neither: number;
}

export function factBasis(f: { primary?: boolean; origins?: readonly string[] }): Basis {
  if (f.primary === true) return 'primary';
  return (f.origins?.length ?? 0) >= 2 ? 'two origins' : 'neither';
}

export function basisCounts(facts: readonly { primary?: boolean; origins?: readonly string[] }[]): BasisCounts {
  const out: BasisCounts = { primary: 0, two_origins: 0, neither: 0 };
  for (const f of facts) {
    const b = factBasis(f);
    if (b === 'primary') out.primary++;
    else if (b === 'two origins') out.two_origins++;
    else out.neither++;
  }
  return out;
}

/** "python.org (primary)", "example.com, other.org", or "—" for a fact with no grounded quote. */
export function originsLabel(f: { primary?: boolean; origins?: readonly string[] }): string {
  const o = f.origins ?? [];
  if (o.length === 0) return '—';
  return `${o.length}: ${o.join(', ')}${f.primary === true ? ' (primary)' : ''}`;
}
