// The mirror check at store time (SPEC 4.1 origin): sentence hashes kept per source, one index per run.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RunStore } from '../../src/store/run-store.js';
import { tempDir } from '../helpers/mcp.js';

const TEXT = Array.from({ length: 8 }, (_, i) => `Sentence ${i} of a manual page that two sites both serve.`).join(' ');
const src = (url: string, markdown = TEXT) => ({ url, canonical_key: url.replace(/^https?:\/\//, ''), title: 'T', markdown, fetched_at: '2026-01-01T00:00:00.000Z' });

describe('mirrors in the store', () => {
  it('stores a copy on another site with mirror_of and its origin; a page of the same site is no mirror', () => {
    const root = tempDir();
    const store = new RunStore(root);
    const a = store.addSourceLocked('run-a', src('https://docs.python-requests.org/en/latest/x')).source;
    const same = store.addSourceLocked('run-a', src('https://requests.readthedocs.io/y', `${TEXT} More.`)).source;
    const b = store.addSourceLocked('run-a', src('https://mirror.example.net/requests/x')).source;
    const c = store.addSourceLocked('run-a', src('https://python-requests.org/other', `${TEXT} And a line of its own.`)).source;
    expect(a).toMatchObject({ id: 'S1', origin: 'python-requests.org' });
    // readthedocs.io is a public suffix (private section): each project's site is its own origin.
    expect(same).toMatchObject({ id: 'S2', origin: 'requests.readthedocs.io', mirror_of: 'S1' });
    expect(b).toMatchObject({ id: 'S3', origin: 'example.net', mirror_of: 'S1' });
    expect(c.mirror_of).toBeUndefined();
    expect(store.countingOrigin('run-a', b)).toBe('python-requests.org');
    // Read back by a fresh process: frontmatter carries both.
    const fresh = new RunStore(root);
    expect(fresh.readSource('run-a', 'S3')).toMatchObject({ origin: 'example.net', mirror_of: 'S1' });
  });

  it('a second process sees the sources the first stored, and a run stored before prints were kept is printed from its text', () => {
    const root = tempDir();
    const one = new RunStore(root);
    const two = new RunStore(root);
    two.addSourceLocked('run-b', src('https://b.org/early', 'An unrelated page of some length. It says other things entirely. Nothing in it repeats.'));
    one.addSourceLocked('run-b', src('https://a.org/x'));
    fs.rmSync(path.join(root, 'run-b', 'state', 'source-prints', 'S2.json'));
    expect(two.addSourceLocked('run-b', src('https://c.org/copy')).source.mirror_of).toBe('S2');
  });
});
