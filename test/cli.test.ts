// `deep-research verify` and `deep-research lint` from the committed bundle, as a researcher's CI runs them.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, tempDir, type Harness } from './helpers/mcp.js';
import { brief, PAGE, QUESTION, seedSource, supportAll } from './helpers/fixtures.js';

const CLI = path.resolve('dist/cli.js');
const cli = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });

let h: Harness;
let runDir: string;
beforeAll(async () => {
  h = await connect();
  const { run_id } = await h.ok('start_run', { question: QUESTION, brief: brief() });
  runDir = path.join(h.root, run_id);
  await seedSource(h.root, run_id, 'https://example.org/a', PAGE(3), 'Trial report A');
  await seedSource(h.root, run_id, 'https://example.org/b', PAGE(4), 'Trial report B (read, not cited)');
  await h.ok('start_thread', { run_id, thread: 'Trials and output' });
  await h.ok('record_round', {
    run_id,
    thread: 'Trials and output',
    query: 'four-day week productivity',
    urls_visited: ['https://example.org/a'],
    facts: [{ fact: 'Output held.', url: 'https://example.org/a', quote: 'kept productivity the same', confidence: 'VERIFIED' }],
    summary: 'One page.',
  });
  await h.ok('complete_thread', { run_id, thread: 'Trials and output' });
});
afterAll(async () => h?.close());

describe('deep-research CLI', () => {
  it('verify exits 0 on a grounded, audited report and 1 with line numbers on an unjudged pair, an edited source or a fabricated citation', async () => {
    const good = '# T\n\n## Findings\n\nIt "kept productivity the same" [S1].\n\n## Methods\n\nOne thread.\n\n## Sources\n\n- [S1] Trial report A — https://example.org/a\n';
    fs.writeFileSync(path.join(runDir, 'report.md'), good);
    // Mechanics pass, and say that the audit was left out; with the audit, the unjudged pair fails.
    const mechanics = cli('verify', runDir, '--no-audit');
    expect(mechanics.stdout).toContain('claim audit not checked (--no-audit)');
    expect(mechanics.status).toBe(0);
    const unjudged = cli('verify', runDir);
    expect(unjudged.status).toBe(1);
    expect(unjudged.stdout).toMatch(/report\.md:5: pair P[0-9a-f]+ .* has no verdict/);
    // A person at the command line is told what they can run, not the agent's tools.
    expect(unjudged.stdout).toContain('judged by running /deep-research-verify <run_id> in your agent CLI');
    expect(unjudged.stdout).not.toMatch(/audit_report|record_audit/);
    await supportAll(h, path.basename(runDir));
    const ok = cli('verify', runDir);
    expect(ok.stdout).toContain('verify: 1 citation, 1 claim–source pair, 0 uncited statements; audit: 1 supported, 0 partial, 0 unsupported, 0 unaudited');
    expect(ok.stdout).toContain('verify: ok');
    expect(ok.status).toBe(0);
    // One character of the cited source changed: verify fails and names the source.
    const source = path.join(runDir, 'sources', 'S1.md');
    const stored = fs.readFileSync(source, 'utf8');
    fs.writeFileSync(source, stored.replace('kept productivity', 'kept productivitY'));
    const edited = cli('verify', runDir);
    expect(edited.status).toBe(1);
    expect(edited.stdout).toMatch(/report\.md:5: source S1 was changed after it was stored/);
    fs.writeFileSync(source, stored);
    // A stored source the report does not cite is checked too (SPEC 6), and named.
    const spare = path.join(runDir, 'sources', 'S2.md');
    const uncitedText = fs.readFileSync(spare, 'utf8');
    fs.writeFileSync(spare, `${uncitedText}\nAn added sentence.\n`);
    const editedUncited = cli('verify', runDir);
    expect(editedUncited.status).toBe(1);
    expect(editedUncited.stdout).toContain(`${path.relative(process.cwd(), spare)}: source S2 (not cited) was changed after it was stored: sources/S2.md no longer matches its sha256`);
    expect(editedUncited.stdout).not.toContain('report.md:0');
    fs.writeFileSync(spare, uncitedText);
    expect(cli('verify', runDir).status).toBe(0);
    // An uncited sentence stating a version fails, with its line, even with --no-audit: it is no audit verdict.
    fs.writeFileSync(path.join(runDir, 'report.md'), good.replace('[S1].', '[S1]. Python 3.12 removed distutils.'));
    const uncited = cli('verify', runDir, '--no-audit');
    expect(uncited.status).toBe(1);
    expect(uncited.stdout).toMatch(/report\.md:5: uncited statement "Python 3\.12 removed distutils\."/);
    expect(uncited.stdout).toContain('1 uncited statement;');
    expect(uncited.stdout).not.toContain('audit_report');
    fs.writeFileSync(path.join(runDir, 'report.md'), good);
    fs.writeFileSync(path.join(runDir, 'report.md'), good.replace('[S1].', '[S1, S7].'));
    const bad = cli('verify', runDir);
    expect(bad.status).toBe(1);
    expect(bad.stdout).toMatch(/report\.md:5: citation \[S7\] does not resolve/);
  });

  it('verify without a report says what to do', () => {
    const report = path.join(runDir, 'report.md');
    const text = fs.readFileSync(report, 'utf8');
    fs.rmSync(report);
    const none = cli('verify', runDir);
    fs.writeFileSync(report, text);
    expect(none.status).toBe(1);
    expect(none.stderr).toMatch(/^verify: no report at .*report\.md: this run has not written its report yet\. Finish it by running \/deep-research again/);
  });

  it('lint passes the server-written reports and fails a broken one', () => {
    const ok = cli('lint', runDir);
    expect(ok.stdout).toMatch(/lint: ok \(2 files\)/);
    expect(ok.status).toBe(0);
    const file = fs.readdirSync(runDir).find((f) => f.startsWith('micro-report-'))!;
    const text = fs.readFileSync(path.join(runDir, file), 'utf8');
    fs.writeFileSync(path.join(runDir, file), text.replace('## Saturation Assessment', '## Saturation').replace('https://example.org/a', 'somewhere'));
    const bad = cli('lint', runDir);
    expect(bad.status).toBe(1);
    expect(bad.stdout).toContain('missing section "## Saturation Assessment"');
    expect(bad.stdout).toContain('fact row has no source linked to its stored file and URL');
    fs.writeFileSync(path.join(runDir, file), text);
  });

  it('lint given the folder of runs (the CI line `lint artifacts`) lints every run in it', () => {
    const ok = cli('lint', h.root);
    expect(ok.stdout).toBe('lint: ok (1 run, 2 files)\n');
    expect(ok.status).toBe(0);
    const file = fs.readdirSync(runDir).find((f) => f.startsWith('thread-completion-'))!;
    const text = fs.readFileSync(path.join(runDir, file), 'utf8');
    fs.writeFileSync(path.join(runDir, file), text.replace('## Facts\n', '## Fact list\n'));
    const bad = cli('lint', h.root);
    fs.writeFileSync(path.join(runDir, file), text);
    expect(bad.status).toBe(1);
    expect(bad.stdout).toContain(`${path.join(runDir, file)}:1: missing section "## Facts"`);
    expect(bad.stdout).toContain('lint: 1 problem in 1 run, 2 files');
  });

  it('lint and verify answer a path that holds no run with one line for a person and exit 2', () => {
    const empty = tempDir('dr-empty-');
    const report = path.join(runDir, 'report.md');
    fs.writeFileSync(report, '# T\n');
    const cases: [string[], RegExp][] = [
      [['lint', empty], /^lint: .* holds no run \(no state\/run\.json in it or in its folders\)/],
      [['lint', report], /^lint: .*report\.md is a file, not a run folder; give the folder that holds it: /],
      [['lint', path.join(empty, 'nope')], /^lint: .*nope does not exist/],
      [['verify', report], /^verify: .*report\.md is a file, not a run folder; give the folder that holds it: /],
      [['verify', h.root], /^verify: .* is not a run folder but holds one; give that: /],
      [['lint', runDir, 'extra'], /^lint: takes one path; remove "extra"$/],
      [['verify', runDir, 'extra'], /^verify: takes one path; remove "extra"$/],
      [['verify', runDir, 'audit.md'], /^verify: takes one path; remove "audit\.md"$/],
      [['verify', runDir, 'report.md', 'extra'], /^verify: takes one path; remove "report\.md", "extra"$/],
      [['lint', '--fix', runDir], /^lint: unknown option --fix$/],
    ];
    for (const [args, want] of cases) {
      const r = cli(...args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trimEnd().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.stderr.trimEnd()).toMatch(want);
    }
    fs.rmSync(empty, { recursive: true });
  });

  it('--version prints the package version', () => {
    const r = cli('--version');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`${JSON.parse(fs.readFileSync('package.json', 'utf8')).version}\n`);
  });

  it('explains its usage and refuses a folder that is not a run', () => {
    expect(cli('verify', h.root).status).toBe(2);
    expect(cli('nonsense').status).toBe(2);
    expect(cli('--help').stdout).toContain('deep-research verify <run-dir>');
  });
});
