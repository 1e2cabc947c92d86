// stdout belongs to the protocol; logs go to stderr, one JSON object per line, never page text.
export function log(entry: Record<string, unknown>): void {
  if (process.env.DEEP_RESEARCH_LOG === 'off') return;
  const clean = Object.fromEntries(Object.entries(entry).filter(([, v]) => v !== undefined));
  process.stderr.write(`${JSON.stringify({ t: new Date().toISOString(), ...clean })}\n`);
}
