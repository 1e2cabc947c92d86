// The frontmatter fields and section headings SPEC 6 requires, in order: one definition shared by the
// lint command and the template tests.
export const MICRO_REPORT_FIELDS = ['thread', 'round', 'strategy_phase', 'timestamp', 'sources_consulted', 'new_facts', 'confirming_facts', 'saturation'] as const;
export const MICRO_REPORT_SECTIONS = [
  'Round Summary',
  'Facts Extracted',
  'Subject Registry Updates',
  'Disambiguation Updates',
  'Contradictions Found',
  'Saturation Assessment',
  'Next Round Guidance',
] as const;
export const COMPLETION_FIELDS = ['thread', 'round_budget', 'rounds_executed', 'convergence_reason', 'micro_reports', 'phases'] as const;
export const COMPLETION_SECTIONS = [
  'Sub-Question Status',
  'Subject Coverage',
  'Facts',
  'All Sources Consulted',
  'Open Contradictions',
  'Resolved Contradictions',
  'Gaps Remaining',
  'Plateau History',
] as const;
export const BRIEF_SECTIONS = ['Question', 'Assumptions', 'Threads', 'Disambiguation', 'Known Facts', 'Scope', 'Budgets'] as const;
export const CRITIQUE_SECTIONS = ['Rounds', 'Open Questions'] as const;
