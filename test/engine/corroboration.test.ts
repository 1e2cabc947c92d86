import { describe, expect, it } from 'vitest';
import { corroborate } from '../../src/engine/corroboration.js';

const base = { ownGrounded: true, primaryOrigins: ['python.org'], grounding: true };

describe('corroboration and confidence (SPEC 4.1)', () => {
  it('a VERIFIED proposal from one secondary site is PLAUSIBLE, with a warning naming the site and both ways to verify', () => {
    const r = corroborate({ ...base, admitted: 'VERIFIED', groundedOrigins: ['realpython.com'] });
    expect(r).toMatchObject({ confidence: 'PLAUSIBLE', origins: ['realpython.com'], primary: false });
    expect(r.warning).toMatch(/realpython\.com/);
    expect(r.warning).toMatch(/primary source \(python\.org\) read through fetch_source/);
    expect(r.warning).toMatch(/also: \[\{url, quote\}\] from another site/);
  });

  it('a grounded quote from a primary origin is VERIFIED', () => {
    expect(corroborate({ ...base, admitted: 'VERIFIED', groundedOrigins: ['python.org'] })).toEqual({ confidence: 'VERIFIED', origins: ['python.org'], primary: true });
  });

  it('grounded quotes from two origins are VERIFIED; two quotes from one origin are not', () => {
    expect(corroborate({ ...base, admitted: 'VERIFIED', groundedOrigins: ['realpython.com', 'stackoverflow.com'] })).toMatchObject({ confidence: 'VERIFIED', origins: ['realpython.com', 'stackoverflow.com'], primary: false });
    expect(corroborate({ ...base, admitted: 'VERIFIED', groundedOrigins: ['realpython.com', 'realpython.com'] })).toMatchObject({ confidence: 'PLAUSIBLE', origins: ['realpython.com'] });
  });

  it('a primary `also` makes the fact primary', () => {
    expect(corroborate({ ...base, admitted: 'VERIFIED', groundedOrigins: ['realpython.com', 'python.org'] })).toMatchObject({ confidence: 'VERIFIED', primary: true });
  });

  it('the proposal caps the result: PLAUSIBLE stays PLAUSIBLE without a warning, however well sourced', () => {
    const r = corroborate({ ...base, admitted: 'PLAUSIBLE', groundedOrigins: ['python.org'] });
    expect(r).toEqual({ confidence: 'PLAUSIBLE', origins: ['python.org'], primary: true });
  });

  it('an ungrounded fact stays as admission left it and has no origins; grounding off leaves the caller\'s word', () => {
    expect(corroborate({ ...base, ownGrounded: false, admitted: 'UNVERIFIED', groundedOrigins: ['python.org'] })).toEqual({ confidence: 'UNVERIFIED', origins: [], primary: false });
    expect(corroborate({ ...base, grounding: false, admitted: 'VERIFIED', groundedOrigins: ['realpython.com'] }).confidence).toBe('VERIFIED');
  });
});
