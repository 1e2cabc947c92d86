import type { RunState } from '../store/run-store.js';
import { cell, inline, render } from './render.js';

export function renderCritique(run: RunState, stop: boolean): string {
  return render('critique', {
    question: inline(run.question),
    clean_signoffs: run.critic.clean_signoffs,
    stop: stop ? 'yes' : 'no',
    rounds: run.critique_rounds.map((r) => ({
      round: r.round,
      sources: r.sources,
      new_sources: r.new_sources,
      facts: r.facts,
      open_material_gaps: r.open_material_gaps,
      signoff: r.clean ? 'clean' : r.signoff ? 'with gaps' : 'no',
      has_gaps: r.gaps.length > 0,
      gaps: r.gaps.map((g) => ({
        kind: g.kind,
        description: cell(g.description),
        query: cell(g.query),
        priority: g.priority,
        material: g.material ? 'yes' : 'no',
        unanswerable: g.unanswerable ? 'yes' : 'no',
      })),
      next_target: r.next_target === undefined ? undefined : inline(r.next_target).replace(/`/g, "'"),
    })),
    open_questions: run.critic.open_questions.map(inline),
  });
}
