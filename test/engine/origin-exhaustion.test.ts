import { describe, expect, it } from 'vitest';
import { deadEnd, isLatePhase, newOrigins, originStreak } from '../../src/engine/origin-exhaustion.js';
import { PHASES } from '../../src/engine/types.js';

describe('origin exhaustion (SPEC 4.1)', () => {
  it('new origins are the round\'s sites the thread had not seen', () => {
    expect(newOrigins(['python.org', 'python.org', 'realpython.com'], new Set(['python.org']))).toEqual(['realpython.com']);
  });

  it('late phases are DIVERSIFY, VERIFY and the last phase of the strategy', () => {
    expect(PHASES.filter((p) => isLatePhase(p, PHASES))).toEqual(['DIVERSIFY', 'VERIFY']);
    expect(isLatePhase('EXTRACT', ['SURVEY', 'EXTRACT'])).toBe(true);
  });

  it('exhausted after 2 late-phase rounds with no new site; an early-phase round or a new site resets the streak', () => {
    const step = (prevStreak: number, phase: (typeof PHASES)[number], fresh: number) => originStreak({ prevStreak, phase, order: PHASES, newOrigins: fresh });
    expect(step(step(0, 'DIVERSIFY', 0), 'VERIFY', 0)).toBe(2);
    expect(step(step(0, 'SURVEY', 0), 'DIVERSIFY', 0)).toBe(1);
    expect(step(1, 'VERIFY', 1)).toBe(0);
  });

  it('a dead end needs the last phase, exhausted origins, and no new fact or site', () => {
    expect(deadEnd({ isLastPhase: true, exhausted: true, newFacts: 0, newOrigins: 0 })).toBe(true);
    expect(deadEnd({ isLastPhase: true, exhausted: true, newFacts: 1, newOrigins: 0 })).toBe(false);
    expect(deadEnd({ isLastPhase: true, exhausted: false, newFacts: 0, newOrigins: 0 })).toBe(false);
    expect(deadEnd({ isLastPhase: false, exhausted: true, newFacts: 0, newOrigins: 0 })).toBe(false);
  });
});
