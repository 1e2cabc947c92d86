import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { runIdFor, slug } from '../../src/engine/slug.js';

const SHAPE = /^[a-z0-9]+(-[a-z0-9]+)*$/;

describe('slug', () => {
  it('is a readable base plus a 6-hex hash', () => {
    expect(slug('Four-Day Week: Output')).toMatch(/^four-day-week-output-[0-9a-f]{6}$/);
    expect(slug('Café Zürich')).toMatch(/^cafe-zurich-[0-9a-f]{6}$/);
  });

  it('keeps names that slug alike apart', () => {
    expect(slug('Thread: A/B')).not.toBe(slug('thread a b'));
    expect(slug('Thread: A/B').slice(0, -7)).toBe(slug('thread a b').slice(0, -7));
  });

  it('is deterministic', () => {
    expect(slug('Counter-evidence')).toBe(slug('Counter-evidence'));
    expect(runIdFor('Is X good?')).toBe(runIdFor('Is X good?'));
  });

  it.each(['..', '.', '../../x', '/etc/passwd', 'a\0b', '\0', 'C:\\Windows\\system32', 'x'.repeat(300), '日本語のスレッド', '🦄🚀', '', '   ', '-', '--a--'])(
    'makes a safe slug of %j',
    (name) => {
      const s = slug(name);
      expect(s).toMatch(SHAPE);
      expect(s.length).toBeLessThanOrEqual(60);
      expect(s).not.toContain('/');
      expect(s).not.toContain('.');
    },
  );

  it('falls back to "x" when nothing readable remains', () => {
    expect(slug('🦄🚀')).toMatch(/^x-[0-9a-f]{6}$/);
    expect(slug('..')).toMatch(/^x-[0-9a-f]{6}$/);
  });

  it('caps the base without leaving a trailing hyphen', () => {
    const s = slug('abcd efgh', 5);
    expect(s).toMatch(/^abcd-[0-9a-f]{6}$/);
    expect(slug('y'.repeat(300))).toMatch(/^y{48}-[0-9a-f]{6}$/);
  });

  it('holds its shape and length for any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (name) => {
        const s = slug(name);
        expect(s).toMatch(SHAPE);
        expect(s.length).toBeLessThanOrEqual(60);
      }),
      { numRuns: 1000 },
    );
  });

  it('gives distinct names distinct slugs', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        fc.pre(a !== b);
        expect(slug(a)).not.toBe(slug(b));
      }),
      { numRuns: 1000 },
    );
  });
});

describe('runIdFor', () => {
  it('has the slug shape with a base of at most 40 characters', () => {
    const id = runIdFor('What is the effect of the four-day work week on output in European firms since 2015?');
    expect(id).toMatch(SHAPE);
    expect(id).toMatch(/^what-is-the-effect-of-the-four-day-work-[0-9a-f]{6}$/);
    expect(id.length).toBeLessThanOrEqual(47);
  });

  it('ignores spacing differences but not wording', () => {
    expect(runIdFor('  Is X   good? ')).toBe(runIdFor('Is X good?'));
    expect(runIdFor('Is X good?')).not.toBe(runIdFor('Is Y good?'));
  });
});
