/** The server's tool names (SPEC 5), for the code that writes about them: the generator and the demo. */
export const TOOL_NAMES = [
  'start_run',
  'start_thread',
  'fetch_source',
  'check_drift',
  'record_round',
  'thread_status',
  'complete_thread',
  'record_critique',
  'audit_report',
  'record_audit',
  'verify_report',
  'coverage_report',
  'search_sources',
] as const;
export type ToolName = (typeof TOOL_NAMES)[number];
