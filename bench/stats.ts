// Order statistics for benchmark samples. Every figure the bench reports is a median or a percentile of
// many runs, never a single time.

/** The value at quantile q (0–1) of the samples, linearly interpolated between closest ranks. */
export function quantile(samples: readonly number[], q: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const pos = (sorted.length - 1) * Math.min(1, Math.max(0, q));
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  const a = sorted[lo] as number;
  const b = sorted[hi] as number;
  return a + (b - a) * (pos - lo);
}

export const median = (samples: readonly number[]): number => quantile(samples, 0.5);

export interface Summary {
  n: number;
  p50: number;
  p99: number;
  min: number;
  max: number;
}

export function summarize(samples: readonly number[]): Summary {
  return {
    n: samples.length,
    p50: quantile(samples, 0.5),
    p99: quantile(samples, 0.99),
    min: Math.min(...samples),
    max: Math.max(...samples),
  };
}

/** Median of the pairwise ratios a[i] / b[i]: robust to drift in machine load across the run. */
export function medianRatio(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  const ratios: number[] = [];
  for (let i = 0; i < n; i++) ratios.push((a[i] as number) / (b[i] as number));
  return median(ratios);
}

/** Milliseconds with precision that suits the magnitude: 0.012 ms, 1.23 ms, 12.3 ms, 123 ms. */
export function ms(x: number): string {
  if (!Number.isFinite(x)) return 'n/a';
  if (x < 0.1) return `${x.toFixed(3)} ms`;
  if (x < 10) return `${x.toFixed(2)} ms`;
  if (x < 100) return `${x.toFixed(1)} ms`;
  return `${Math.round(x)} ms`;
}

export function ratio(x: number): string {
  return Number.isFinite(x) ? x.toFixed(2) : 'n/a';
}

export function int(x: number): string {
  return Math.round(x).toLocaleString('en-US');
}

/** Runs fn `warmup` times unmeasured, then `runs` times, and returns each run's duration in ms. */
export async function sample(runs: number, warmup: number, fn: (i: number) => unknown): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn(i);
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn(i);
    out.push(performance.now() - t0);
  }
  return out;
}

/** Synchronous variant for pure computations, so no microtask hop sits inside the timed span. */
export function sampleSync(runs: number, warmup: number, fn: (i: number) => unknown): number[] {
  for (let i = 0; i < warmup; i++) fn(i);
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn(i);
    out.push(performance.now() - t0);
  }
  return out;
}

/**
 * Like sampleSync, with the process's CPU time (user + system) of each run beside its wall time. For pure
 * computations CPU time is what the code costs; wall time also counts waiting for a busy machine's CPU.
 */
export function sampleSyncCpu(runs: number, warmup: number, fn: (i: number) => unknown): { wall: number[]; cpu: number[] } {
  for (let i = 0; i < warmup; i++) fn(i);
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    fn(i);
    const dt = performance.now() - t0;
    const c = process.cpuUsage(c0);
    wall.push(dt);
    cpu.push((c.user + c.system) / 1000);
  }
  return { wall, cpu };
}

/** sampleSyncCpu over several functions in rotation, as sampleAlternating does for calls. */
export function sampleSyncCpuAlternating(fns: readonly (() => unknown)[], runs: number, warmup: number): { wall: number[]; cpu: number[] }[] {
  const out = fns.map(() => ({ wall: [] as number[], cpu: [] as number[] }));
  for (let i = 0; i < warmup + runs; i++) {
    for (let j = 0; j < fns.length; j++) {
      const k = (i + j) % fns.length;
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      (fns[k] as () => unknown)();
      const dt = performance.now() - t0;
      const c = process.cpuUsage(c0);
      if (i >= warmup) {
        out[k]?.wall.push(dt);
        out[k]?.cpu.push((c.user + c.system) / 1000);
      }
    }
  }
  return out;
}

/** Like sample, but `setup` runs before each measured call outside the timed span. */
export async function sampleWithSetup(
  runs: number,
  warmup: number,
  setup: (i: number) => unknown,
  fn: (i: number) => unknown,
): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < warmup + runs; i++) {
    await setup(i);
    const t0 = performance.now();
    await fn(i);
    const dt = performance.now() - t0;
    if (i >= warmup) out.push(dt);
  }
  return out;
}

/**
 * Samples several cases in alternation, rotating which goes first, so a slow spell of the machine (a
 * disk flush, another process) falls on every case alike. Returns each case's durations in ms.
 */
export async function sampleAlternating<C>(
  cases: readonly C[],
  runs: number,
  warmup: number,
  setup: (c: C) => unknown,
  fn: (c: C) => unknown,
): Promise<number[][]> {
  const out: number[][] = cases.map(() => []);
  for (let i = 0; i < warmup + runs; i++) {
    for (let j = 0; j < cases.length; j++) {
      const k = (i + j) % cases.length;
      const c = cases[k] as C;
      await setup(c);
      const t0 = performance.now();
      await fn(c);
      const dt = performance.now() - t0;
      if (i >= warmup) (out[k] as number[]).push(dt);
    }
  }
  return out;
}
