import { describe, expect, it } from 'vitest';
import { contextAdds, passageKey } from '../../src/engine/audit-repeats.js';

describe('contextAdds', () => {
  it('is false when every part of the context is a statement shown', () => {
    const context = 'A pack stores objects in one file, while loose objects are compressed at level 1 by default.';
    expect(contextAdds(context, ['A pack stores objects in one file', 'while loose objects are compressed at level 1 by default'])).toBe(false);
  });
  it('is true when a clause is not among the statements', () => {
    expect(contextAdds('Git packs objects. It runs gc.auto when 6700 loose objects exist.', ['Git packs objects'])).toBe(true);
  });
  it('keeps a table header, which no statement holds', () => {
    expect(contextAdds('[table: option | default]', ['option'])).toBe(true);
  });
  it('folds case and spacing', () => {
    expect(contextAdds('Git  GC prunes.', ['git gc prunes'])).toBe(false);
  });
});

describe('passageKey', () => {
  it('is the same across whitespace and differs across text', () => {
    expect(passageKey('a  b\nc')).toBe(passageKey('a b c'));
    expect(passageKey('a b c')).not.toBe(passageKey('a b d'));
  });
});
