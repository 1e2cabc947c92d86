import { describe, expect, it } from 'vitest';
import { saturationOf } from '../../src/engine/saturation.js';

describe('saturationOf', () => {
  it.each([
    [0, 'HIGH'],
    [1, 'HIGH'],
    [2, 'MEDIUM'],
    [4, 'MEDIUM'],
    [5, 'LOW'],
    [40, 'LOW'],
  ] as const)('%i new facts → %s', (n, level) => {
    expect(saturationOf(n)).toBe(level);
  });

  it('rejects counts that cannot be counts (a caller bug)', () => {
    expect(() => saturationOf(-1)).toThrow(RangeError);
    expect(() => saturationOf(2.5)).toThrow(RangeError);
    expect(() => saturationOf(Number.NaN)).toThrow(RangeError);
  });
});
