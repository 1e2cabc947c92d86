// Context footprint: the tokens a session pays before and while it does any research. Tool definitions
// as tools/list returns them, the always-on cost Claude Code reports for the plugin, and the size of the
// markdown the agent reads when a command or skill fires.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { inProcess } from './in-process.js';
import { replayFootprint } from './replay.js';
import { goalRow, type Row, type Section } from './report.js';
import { int } from './stats.js';
import { childEnv, StdioClient } from './stdio-client.js';
import { ourServer, referenceServer, REPO } from './targets.js';

const run = promisify(execFile);

/** The usual rough estimate, and the one the goals are written in. */
export const tokens = (chars: number): number => Math.round(chars / 4);
const tok = (x: number): string => `${int(x)} tok`;
const words = (text: string): number => text.split(/\s+/u).filter(Boolean).length;

interface Listing {
  tools: Record<string, unknown>[];
  instructions: string;
}

async function listOverStdio(command: string, args: string[], env: Record<string, string>): Promise<Listing> {
  const client = new StdioClient(command, args, env);
  try {
    const init = await client.initialize();
    client.notify('notifications/initialized');
    const list = await client.request('tools/list');
    return { tools: list.tools as Record<string, unknown>[], instructions: typeof init.instructions === 'string' ? init.instructions : '' };
  } finally {
    await client.close({ kill: true });
  }
}

async function listInProcess(): Promise<Listing> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'dr-bench-list-'));
  const s = await inProcess({ root });
  try {
    const list = await s.request('tools/list');
    const instructions = s.initializeResult.instructions;
    return { tools: list.tools as Record<string, unknown>[], instructions: typeof instructions === 'string' ? instructions : '' };
  } finally {
    await s.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

const listingTokens = (l: Listing): number => tokens(JSON.stringify(l.tools).length);

function toolBreakdown(l: Listing): string[] {
  const lines = ['| tool | total | description | input schema | output schema |', '|---|---|---|---|---|'];
  for (const t of l.tools) {
    const part = (k: string) => (t[k] === undefined ? 0 : tokens(JSON.stringify(t[k]).length));
    lines.push(`| ${String(t.name)} | ${int(tokens(JSON.stringify(t).length))} | ${int(part('description'))} | ${int(part('inputSchema'))} | ${int(part('outputSchema'))} |`);
  }
  return lines;
}

/** Always-on token cost as the pinned Claude Code reports it, or why it could not be asked. */
async function claudeAlwaysOn(): Promise<{ tokens?: number; report?: string; why?: string }> {
  const bin = path.join(REPO, '.ci', 'tools', 'node_modules', '.bin', 'claude');
  if (!fs.existsSync(bin)) return { why: 'not measured: claude not installed in .ci/tools' };
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'dr-bench-home-'));
  try {
    // A throwaway HOME, as .ci/claude-checks.sh does: no user settings or plugins leak in.
    const env = childEnv({ HOME: home, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1' });
    delete env.CLAUDE_CONFIG_DIR;
    const { stdout } = await run(bin, ['--plugin-dir', '.', 'plugin', 'details', 'deep-research'], { cwd: REPO, env, timeout: 120_000 });
    const m = /Always-on:\s*~?\s*([\d.,]+)\s*(k?)\s*tok/i.exec(stdout);
    if (!m) return { why: 'not measured: `claude plugin details` printed no "Always-on" line', report: stdout };
    const n = Number((m[1] as string).replace(/,/g, '')) * (m[2] ? 1000 : 1);
    return { tokens: n, report: stdout };
  } catch (err) {
    return { why: `not measured: claude plugin details failed (${(err as Error).message.split('\n')[0]})` };
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}

function markdownFiles(dir: string): string[] {
  const abs = path.join(REPO, dir);
  if (!fs.existsSync(abs)) return [];
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.md')) out.push(path.relative(REPO, p).split(path.sep).join('/'));
    }
  };
  walk(abs);
  return out.sort();
}

export async function footprint(): Promise<Section> {
  const section: Section = { name: 'footprint', title: 'Context footprint', rows: [], notes: [] };
  const ours = ourServer();
  const ref = referenceServer();

  // Tool definitions. The bundle is what users run; src/ is listed too, to catch a stale bundle.
  const fromSrc = await listInProcess();
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'dr-bench-fp-'));
  let fromDist: Listing | undefined;
  let fromRef: Listing | undefined;
  try {
    if (ours.present) fromDist = await listOverStdio(process.execPath, [ours.entry], childEnv({ DEEP_RESEARCH_ARTIFACTS: scratch, DEEP_RESEARCH_LOG: 'off' }));
    if (ref.present) fromRef = await listOverStdio(process.execPath, [ref.entry, scratch], childEnv());
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }

  const shipped = fromDist ?? fromSrc;
  const ourTok = listingTokens(shipped);
  const refTok = fromRef ? listingTokens(fromRef) : Number.NaN;
  section.rows.push(
    goalRow(`tool definitions, all ${shipped.tools.length} tools as tools/list returns them (chars/4)`, ourTok, { max: 4592, format: tok }, {
      reference: fromRef ? `${tok(refTok)} (${fromRef.tools.length} tools)` : 'not measured',
      goalText: `${fromRef ? `${(ourTok / refTok).toFixed(2)} × ref; ` : ''}goal ≤ 4,592 tok (revision 2: 11 tools, was 3,000 for 9; revision 3: +84 uncited statements, +114 origins, +44 full, kept, left_out; revision 4: +60 reply economy, +221 coverage audit and named release, +178 local sources, +6 drift why, +68 long PDF pages)`,
    }),
    {
      figure: 'server instructions (initialize; always on in clients that show them)',
      ours: tok(tokens(shipped.instructions.length)),
      reference: fromRef ? tok(tokens(fromRef.instructions.length)) : '—',
      goal: '—',
    },
  );

  const claude = await claudeAlwaysOn();
  section.rows.push(
    claude.tokens !== undefined
      ? goalRow('plugin always-on cost, as `claude plugin details` reports it', claude.tokens, { max: 150, format: tok })
      : { figure: 'plugin always-on cost, as `claude plugin details` reports it', ours: claude.why ?? 'not measured', reference: '—', goal: 'goal ≤ 150 tok', met: null, because: (claude.why ?? 'not measured').replace(/^not measured: /, '') },
  );

  const commands = markdownFiles('commands');
  for (const f of commands) {
    const w = words(fs.readFileSync(path.join(REPO, f), 'utf8'));
    // The orchestrator gained the claim audit (step 8) in revision 2; all commands together stay under 4,000 (test/pack/size.test.ts).
    section.rows.push(goalRow(`words: ${f}`, w, { max: 2000, format: (x) => `${int(x)} words` }));
  }
  const skills = markdownFiles('skills');
  const skillWords = skills.map((f) => ({ f, w: words(fs.readFileSync(path.join(REPO, f), 'utf8')) }));
  if (skillWords.length > 0) {
    const largest = skillWords.reduce((a, b) => (b.w > a.w ? b : a));
    section.rows.push({
      figure: `words: skills (${skills.length} files, largest ${largest.f})`,
      ours: `${int(skillWords.reduce((a, b) => a + b.w, 0))} words in all, largest ${int(largest.w)}`,
      reference: '—',
      goal: '—',
    });
  }

  section.notes.push(
    `Tool definitions: the \`tools\` array of tools/list serialised as JSON (names, titles, descriptions, input and output schemas, annotations), tokens estimated as characters / 4. ` +
      `Ours from ${fromDist ? `\`${ours.label}\` over stdio` : 'src/ in process (no bundle found)'}; reference ${fromRef ? ref.label : 'not found'}.`,
    '',
    ...toolBreakdown(shipped),
  );
  if (fromDist) {
    const srcTok = listingTokens(fromSrc);
    if (JSON.stringify(fromSrc.tools) !== JSON.stringify(fromDist.tools)) {
      section.notes.push('', `Note: tools/list from src/ (${tok(srcTok)}) differs from the bundle (${tok(ourTok)}): dist/ is stale; run npm run build.`);
    }
  }
  section.notes.push('', `Markdown the agent reads (words = whitespace-separated tokens of the whole file, frontmatter included; tokens ≈ characters / 4):`, '', '| file | words | ≈ tokens |', '|---|---|---|');
  for (const f of [...commands, ...skills, ...markdownFiles('agents')]) {
    const text = fs.readFileSync(path.join(REPO, f), 'utf8');
    section.notes.push(`| ${f} | ${int(words(text))} | ${int(tokens(text.length))} |`);
  }
  const replay = await replayFootprint();
  section.rows.push(...replay.rows);
  section.notes.push('', ...replay.notes);
  if (claude.report) {
    section.notes.push('', '`claude --plugin-dir . plugin details deep-research` (pinned Claude Code in .ci/tools):', '', '```', claude.report.trimEnd(), '```');
  }
  return section;
}

export type { Row };
