// Drift on small excerpts of real pages (test/fixtures/drift/, from the labelled set of bench/drift/;
// issue 24 item 4): an off-topic page is flagged, an on-topic page that names excluded terms is not, and a
// page about another release than the run names is.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { assessDrift } from '../../src/engine/drift.js';
import { otherRelease, releasesNamed, sameRelease, targetReleases } from '../../src/engine/version-drift.js';

const page = (name: string) => fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'drift', `${name}.md`), 'utf8');

const REQUESTS = {
  subjects: ['requests', 'timeouts', 'retries'],
  include: ['requests library'],
  exclude: ['aiohttp', 'httpx', 'urllib3'],
  subQuestions: ['How do I set a connect and read timeout on a requests call?', 'How can requests retry failed connections?'],
};

describe('subject and domain on real pages', () => {
  it("does not flag requests' own Advanced Usage page, which names urllib3 (an excluded term)", () => {
    expect(assessDrift({ ...REQUESTS, text: page('requests-advanced') })).toEqual({ drift: false, signals: [] });
  });

  it("flags aiohttp's client quickstart for a requests thread: it names aiohttp, and not requests", () => {
    expect(assessDrift({ ...REQUESTS, text: page('aiohttp-client-quickstart') }).signals).toEqual(['subject', 'domain']);
  });

  it('flags the Debian Policy flowcharts for a requests thread, and not for a maintainer-scripts thread', () => {
    expect(assessDrift({ ...REQUESTS, text: page('policy-flowcharts') }).signals).toContain('subject');
    const policy = { subjects: ['maintainer scripts', 'postinst'], include: ['Debian Policy'], exclude: ['RPM'], subQuestions: [] };
    expect(assessDrift({ ...policy, text: page('policy-flowcharts') }).signals).toEqual([]);
  });

  it("flags Python's csv module page for a thread on R's read.csv, though it reads CSV", () => {
    const r = { subjects: ['R', 'read.csv'], include: ['R 4.4'], exclude: [], subQuestions: ['Which functions read CSV files in R 4.4?'] };
    expect(assessDrift({ ...r, text: page('py-csv') }).signals).toEqual(['subject']);
  });
});

describe('version drift on real pages', () => {
  const asyncio = ['What changed in asyncio in Python 3.11?'];

  it('flags the 3.4 release notes for a Python 3.11 question, though its title names the 3.11 docs', () => {
    const text = page('py-whatsnew-3.4');
    expect(otherRelease(text, targetReleases(asyncio))).toMatchObject({ product: 'python', version: '3.4' });
    const r = assessDrift({ subjects: ['asyncio'], include: ['Python 3.11'], exclude: [], subQuestions: asyncio, versionContext: asyncio, text });
    expect(r.signals).toEqual(['version']);
  });

  it('does not flag a page of the 3.11 documentation', () => {
    expect(otherRelease(page('py-csv'), targetReleases(asyncio))).toBeUndefined();
  });

  it('flags the R 4.2.2 manual for an R 4.4 question, from its version stamp', () => {
    expect(otherRelease(page('r-data'), targetReleases(['How do I import CSV data in R 4.4?']))).toMatchObject({ product: 'R', version: '4.2.2' });
  });

  it('flags Git 2.20 release notes for a Git 2.39 question', () => {
    expect(otherRelease(page('git-relnotes-2.20.0'), targetReleases(['What is new in Git 2.39?']))).toMatchObject({ product: 'git', version: '2.20' });
  });

  it('has no target when the run names no release ("latest" alone), or when the page names another product only', () => {
    expect(targetReleases(['What is new in the latest Git?']).size).toBe(0);
    expect(otherRelease(page('requests-advanced'), targetReleases(asyncio))).toBeUndefined();
  });

  it('reads releases and compares them by their leading parts', () => {
    expect(releasesNamed('Git v2.39 Release Notes; in 3.4; R, version 4.2.2; Python (3.11)').map((r) => `${r.product} ${r.version}`)).toEqual(['git 2.39', 'R 4.2.2', 'python 3.11']);
    // A release named as history dates a change: the page is not about it (trial 25, a span of refman.pdf).
    const span = 'tracemem 673\n\nWarning\n\nIt is undocumented where .Traceback is stored. As of R 4.0.0 .Traceback contains the calls as language objects.';
    expect(otherRelease(span, targetReleases(['the manuals for R 4.2.2']))).toBeUndefined();
    expect(otherRelease('R 4.0.0 release notes\n\nWhat changed.', targetReleases(['the manuals for R 4.2.2']))).toMatchObject({ product: 'R', version: '4.0.0' });
    // Words that only place a number ("current releases 3.11-3.13", "between versions 2.3 and 2.4") name no product.
    expect(releasesNamed('current releases 3.11-3.13; between versions 2.3 and 2.4; changed after 1.2').map((r) => r.product)).toEqual([]);
    expect(sameRelease('3.11', '3.11.2')).toBe(true);
    expect(sameRelease('3.11', '3')).toBe(true);
    expect(sameRelease('3.11', '3.1')).toBe(false);
    expect(sameRelease('4.4', '4.2.2')).toBe(false);
  });
});
