// stdout belongs to the protocol; logs go to stderr, one JSON object per line, never page text.
let enabled = process.env.DEEP_RESEARCH_LOG !== 'off';

/** createServer applies its own environment here, so an embedding process can silence the log. */
export function setLogging(on: boolean): void {
  enabled = on;
}

export function log(entry: Record<string, unknown>): void {
  if (!enabled) return;
  const clean = Object.fromEntries(Object.entries(entry).filter(([, v]) => v !== undefined));
  process.stderr.write(`${JSON.stringify({ t: new Date().toISOString(), ...clean })}\n`);
}
