// How a ranked passage is widened around its best sentence (issue 23: the claim audit's passages).
import { describe, expect, it } from 'vitest';
import { rankedPassages } from '../../src/fetch/passages.js';

// From the Python 3.11 logging documentation (PSF licence).
const PAGE =
  'Loggers have the following attributes and methods. Note that Loggers should NEVER be instantiated directly, but always through the module-level function logging.getLogger(name). ' +
  'If this attribute evaluates to true, events logged to this logger will be passed to the handlers of higher level (ancestor) loggers, in addition to any handlers attached to this logger. ' +
  'Messages are passed directly to the ancestor loggers’ handlers - neither the level nor filters of the ancestor loggers in question are considered. ' +
  'The constructor sets this attribute to True.';

describe('passage widening', () => {
  const statement = 'The constructor sets propagate to True';
  it('by default takes any neighbour while it fits', () => {
    const [p] = rankedPassages(PAGE, statement, 1, 360);
    expect(p).toBe('Messages are passed directly to the ancestor loggers’ handlers - neither the level nor filters of the ancestor loggers in question are considered. The constructor sets this attribute to True.');
  });
  it('for the claim audit takes only neighbours that share a word with the statement', () => {
    expect(rankedPassages(PAGE, statement, 1, 360, undefined, { widen: 'matching' })).toEqual(['The constructor sets this attribute to True.']);
    // A neighbour that shares a word still joins.
    expect(rankedPassages(PAGE, 'The constructor sets propagate to True, and messages then go to the ancestor handlers', 1, 360, undefined, { widen: 'matching' })[0]).toContain('Messages are passed directly');
  });
});
