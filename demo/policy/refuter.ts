// Step 8's fresh subagent: tries to refute each key claim from the stored source text alone. Scripted, it
// refutes a claim exactly when its quotation is not in the stored file it cites (or the file is missing).
import { normaliseForMatch, stripLineNumbers } from './reply.js';
import { calls, read, type Policy } from './types.js';

export interface Claim {
  sourceId: string;
  quote: string;
}

export function refuterPrompt(runFolder: string, claims: Claim[]): string {
  return [
    `Refute the key claims of a deep-research report from the stored text alone. Run folder: ${runFolder}`,
    'For each claim, read sources/<id>.md in the run folder and check that the quoted text is there. Reply with one line per claim: "refuted: <id> | <quote> | <why>" or "supported: <id> | <quote>".',
    ...claims.map((c) => `claim: ${c.sourceId} | ${c.quote}`),
  ].join('\n');
}

export function parseRefuterPrompt(prompt: string): { runFolder: string; claims: Claim[] } | undefined {
  const folder = /^Refute the key claims of a deep-research report from the stored text alone\. Run folder: (\S+)$/m.exec(prompt);
  if (!folder) return undefined;
  const claims: Claim[] = [];
  for (const m of prompt.matchAll(/^claim: (S\d+) \| (.+)$/gm)) claims.push({ sourceId: m[1]!, quote: m[2]! });
  return { runFolder: folder[1]!, claims };
}

export function* refuter(task: { runFolder: string; claims: Claim[] }): Policy {
  const ids = [...new Set(task.claims.map((c) => c.sourceId))];
  if (ids.length === 0) return 'No claims to check.';
  const files = yield* calls(...ids.map((id) => read(`${task.runFolder}/sources/${id}.md`)));
  const text = new Map(ids.map((id, i) => [id, files[i]!.isError ? undefined : normaliseForMatch(stripLineNumbers(files[i]!.text))]));
  return task.claims
    .map((c) => {
      const t = text.get(c.sourceId);
      if (t === undefined) return `refuted: ${c.sourceId} | ${c.quote} | no stored source ${c.sourceId}`;
      return t.includes(normaliseForMatch(c.quote)) ? `supported: ${c.sourceId} | ${c.quote}` : `refuted: ${c.sourceId} | ${c.quote} | the quotation is not in the stored text`;
    })
    .join('\n');
}

export function parseRefutations(text: string): Claim[] {
  const out: Claim[] = [];
  for (const m of text.matchAll(/^\s*refuted: (S\d+) \| (.+?) \| /gm)) out.push({ sourceId: m[1]!, quote: m[2]! });
  return out;
}
