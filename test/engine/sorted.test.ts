import { describe, expect, it } from 'vitest';
import { upperBound } from '../../src/engine/sorted.js';

describe('upperBound', () => {
  it('counts the elements at most v', () => {
    expect(upperBound([], 3)).toBe(0);
    expect(upperBound([1, 3, 3, 5], 0)).toBe(0);
    expect(upperBound([1, 3, 3, 5], 3)).toBe(3);
    expect(upperBound([1, 3, 3, 5], 4)).toBe(3);
    expect(upperBound([1, 3, 3, 5], 9)).toBe(4);
  });
});
