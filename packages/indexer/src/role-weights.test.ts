import { describe, expect, it } from 'vitest';
import { queryWords } from './name-coverage.js';
import { roleWeightsFor } from './role-weights.js';

describe('roleWeightsFor', () => {
  it('demotes tests, docs and generated files below source', () => {
    const weight = roleWeightsFor(queryWords('refresh the session token'));
    expect(weight('source')).toBe(1);
    expect(weight('test')).toBe(0.7);
    expect(weight('docs')).toBe(0.7);
    expect(weight('generated')).toBe(0.6);
  });

  it('lifts a role the query asks for to just below source (source wins only a tie)', () => {
    const weight = roleWeightsFor(queryWords('tests for the session refresh'));
    expect(weight('test')).toBeGreaterThan(0.9);
    expect(weight('test')).toBeLessThan(weight('source'));
    expect(weight('fixture')).toBe(weight('test'));
    expect(weight('docs')).toBe(0.7);
    expect(roleWeightsFor(queryWords('docs on sync'))('docs')).toBe(weight('test'));
  });
});
