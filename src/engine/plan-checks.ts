// Plan checks (SPEC 4.1): what a brief will not get at its tier, said before the run starts. Warnings,
// never refusals: the planner may have reasons, but should not learn the limits from a refusal later.
import { phaseAllowances, phaseOrder } from './phases.js';
import { isAggregator, isCodeHost } from './origin.js';
import type { Brief, Depth, TierBudgets } from './types.js';

const COUNTER = /counter|objection|against|criticism|critique|dissent|skeptic|sceptic|refut|rebut|opposing|downside|disconfirm/i;

export function planWarnings(brief: Brief, budgets: TierBudgets, depth: Depth): string[] {
  const out: string[] = [];
  const rounds = budgets.rounds_per_thread;
  for (const t of brief.threads) {
    const order = phaseOrder(t.source_strategy);
    const allowances = phaseAllowances(order, rounds);
    const last = order.at(-1)!;
    // A single-phase thread has no "before": all of its rounds can go to subjects.
    const beforeLast = order.length === 1 ? rounds : order.slice(0, -1).reduce((n, p) => n + (allowances[p] ?? 0), 0);
    if (t.subjects.length > beforeLast) {
      out.push(
        `thread "${t.name}" has ${t.subjects.length} subjects but ${beforeLast} round${beforeLast === 1 ? '' : 's'} before its last phase (${last}): some subject would get no round of its own; merge or drop subjects, move some to another thread, or choose a deeper tier`,
      );
    }
    const aggregators = (t.primary_origins ?? []).filter(isAggregator);
    if (aggregators.length > 0) {
      out.push(
        `thread "${t.name}" names ${aggregators.join(', ')} as primary: a general aggregator (encyclopedia, Q&A or social site, blog host) rarely speaks first-hand; name the sites of the project, standard body, agency or authors instead`,
      );
    }
    const hosts = (t.primary_origins ?? []).filter(isCodeHost);
    if (hosts.length > 0) {
      out.push(
        `thread "${t.name}" names ${hosts.join(', ')} as primary: origins are whole sites, so every project's pages there will count as primary for this thread, not only the repository you meant; keep it only if that is acceptable, else name the project's own documentation site`,
      );
    }
    const skipped = order.filter((p) => (allowances[p] ?? 0) === 0);
    if (skipped.length > 0) {
      out.push(
        `thread "${t.name}": ${skipped.join(', ')} get${skipped.length === 1 ? 's' : ''} no round at ${rounds} rounds per thread (${depth}) and will be skipped; list only the phases that matter in source_strategy, or choose a deeper tier`,
      );
    }
  }
  const counter = brief.threads.some((t) => COUNTER.test(t.name) || t.sub_questions.some((q) => COUNTER.test(q.question)));
  if (brief.threads.length === budgets.max_threads && !counter) {
    out.push(
      `the brief has ${brief.threads.length} threads, the most the ${depth} tier allows, and none reads as the counter-evidence thread (its name or sub-questions would mention counter-evidence, objections or the case against): make one of them that thread`,
    );
  }
  return out;
}
