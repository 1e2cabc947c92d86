import { describe, expect, it } from 'vitest';
import { findMirror, textPrint } from '../../src/engine/mirrors.js';

const sentences = (n: number, tag = '') => Array.from({ length: n }, (_, i) => `This is sentence number ${i} of the shared manual text${tag}.`).join(' ');

describe('mirrors (SPEC 4.1 origin)', () => {
  it('the same text on another site, after normalisation, is a mirror of the first', () => {
    const a = textPrint(`# Timeouts\n\n${sentences(5)}`);
    const b = textPrint(`# TIMEOUTS\n\n${sentences(5).toUpperCase().replace(/ /g, '  ')}`);
    expect(findMirror(b, 'mirror.example', [{ id: 'S1', origin: 'python-requests.org', print: a }])).toBe('S1');
  });

  it('a text holding ≥ 90% of the other\'s sentences is a mirror, either way round; under 90% is not', () => {
    const base = textPrint(sentences(20));
    const superset = textPrint(`${sentences(20)} An extra paragraph the mirror added about its own hosting.`);
    const subset = textPrint(sentences(18)); // 18 of 20 = 90%
    const less = textPrint(`${sentences(17)} ${sentences(5, ' but reworded')}`); // 17 of 20 and 17 of 22
    const earlier = [{ id: 'S1', origin: 'a.org', print: base }];
    expect(findMirror(superset, 'b.org', earlier)).toBe('S1');
    expect(findMirror(subset, 'b.org', earlier)).toBe('S1');
    expect(findMirror(less, 'b.org', earlier)).toBeUndefined();
  });

  it('pages of the same site are never mirrors of each other, and a mirror of a mirror counts as the first site', () => {
    const p = textPrint(sentences(6));
    expect(findMirror(p, 'a.org', [{ id: 'S1', origin: 'a.org', print: p }])).toBeUndefined();
    expect(findMirror(p, 'c.org', [{ id: 'S2', origin: 'b.org', print: p, mirror_of: 'S1' }])).toBe('S1');
  });

  it('two short texts share sentences by chance too often to judge: only equality counts', () => {
    const a = textPrint('See the documentation for details on this function. Returns nothing at all here.');
    const b = textPrint('See the documentation for details on this function. Returns nothing at all here. And more words follow here.');
    expect(findMirror(b, 'b.org', [{ id: 'S1', origin: 'a.org', print: a }])).toBeUndefined();
  });
});
