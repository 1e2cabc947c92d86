// The shape every bench section returns, and the one markdown table they are printed in.
import * as os from 'node:os';

/** One line of the final table. A goal is an acceptance criterion: a missed one prints MISSED. */
export interface Row {
  figure: string;
  ours: string;
  /** The reference's figure, or '—' when there is none to compare with. */
  reference?: string;
  /** The ratio/goal column, e.g. "0.64 (goal ≤ 0.70)". */
  goal?: string;
  /** true met, false missed, null when the figure could not be measured; undefined for no goal. */
  met?: boolean | null;
  /** Printed after MISSED / NOT MEASURED, e.g. "0.96 > 0.70" or why it was not measured. */
  because?: string;
}

export interface Section {
  name: string;
  title: string;
  rows: Row[];
  /** Markdown lines printed under the table: method, sample sizes, breakdowns. */
  notes: string[];
}

export interface Goal {
  /** At most this value meets the goal. */
  max: number;
  /** How a value is written, e.g. ms or a plain ratio. */
  format: (x: number) => string;
}

/** A row whose value is checked against an upper bound. NaN (not measured) never meets a goal. */
export function goalRow(figure: string, value: number, goal: Goal, o: { ours?: string; reference?: string; goalText?: string } = {}): Row {
  const measured = Number.isFinite(value);
  const met = measured ? value <= goal.max : null;
  const row: Row = {
    figure,
    ours: o.ours ?? goal.format(value),
    reference: o.reference ?? '—',
    goal: o.goalText ?? `goal ≤ ${goal.format(goal.max)}`,
    met,
  };
  if (met === false) row.because = `${goal.format(value)} > ${goal.format(goal.max)}`;
  if (met === null) row.because = 'not measured';
  return row;
}

export function metCell(r: Row): string {
  if (r.met === undefined) return '—';
  if (r.met === true) return 'yes';
  if (r.met === null) return `NOT MEASURED${r.because && r.because !== 'not measured' ? ` (${r.because})` : ''}`;
  return `MISSED (${r.because ?? r.ours})`;
}

const esc = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function renderTable(rows: readonly Row[]): string {
  const lines = ['| figure | ours | reference | ratio/goal | met? |', '|---|---|---|---|---|'];
  for (const r of rows) {
    lines.push(`| ${esc(r.figure)} | ${esc(r.ours)} | ${esc(r.reference ?? '—')} | ${esc(r.goal ?? '—')} | ${esc(metCell(r))} |`);
  }
  return lines.join('\n');
}

export interface Machine {
  cpu: string;
  cores: number;
  node: string;
  os: string;
  memory: string;
  /** 1-minute load average when the bench started: other work on the machine shows in the timings. */
  load: number;
}

export function machine(): Machine {
  const cpus = os.cpus();
  return {
    cpu: (cpus[0]?.model ?? 'unknown').trim(),
    cores: typeof os.availableParallelism === 'function' ? os.availableParallelism() : cpus.length,
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    memory: `${Math.round(os.totalmem() / 2 ** 30)} GiB`,
    load: os.loadavg()[0] ?? 0,
  };
}

export function machineLine(m: Machine = machine()): string {
  return `Machine: ${m.cpu}, ${m.cores} cores, ${m.memory} RAM, Node ${m.node}, ${m.os}; load average ${m.load.toFixed(2)} at start.`;
}
