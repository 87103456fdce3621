import { describe, expect, it } from 'vitest';
import { compileGlob, expandBraces } from './glob-match.js';

describe('compileGlob', () => {
  it('matches stars, question marks, classes and globstars', () => {
    const ts = compileGlob('**/*.ts');
    expect(ts('a.ts')).toBe(true);
    expect(ts('src/deep/a.ts')).toBe(true);
    expect(ts('src/a.tsx')).toBe(false);
    expect(compileGlob('src/**/test/*.ts')('src/test/a.ts')).toBe(true);
    expect(compileGlob('src/**/test/*.ts')('src/x/y/test/a.ts')).toBe(true);
    expect(compileGlob('src/**/test/*.ts')('lib/test/a.ts')).toBe(false);
    expect(compileGlob('file?.[jt]s')('file1.js')).toBe(true);
    expect(compileGlob('file?.[!j]s')('file1.js')).toBe(false);
    expect(compileGlob('[a-c]*.md')('beta.md')).toBe(true);
    expect(compileGlob('*')('.env')).toBe(true);
    expect(compileGlob('lib/**')('lib')).toBe(true);
    expect(compileGlob('*.ts')('src/a.ts')).toBe(false);
  });

  it('expands braces and ranges, bounded', () => {
    expect(expandBraces('*.{ts,tsx}')).toEqual(['*.ts', '*.tsx']);
    expect(expandBraces('a{1..3}{x,y{z,w}}')).toHaveLength(9);
    expect(expandBraces('{x}')).toEqual(['{x}']);
    expect(compileGlob('**/*.{js,mjs}')('a/b.mjs')).toBe(true);
    expect(() => expandBraces('{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}')).toThrow(/more than 256/);
    expect(() => expandBraces('{1..100000}')).toThrow(/too large/);
  });

  it('pathological patterns finish fast on long names', () => {
    const name = 'a'.repeat(5000);
    expect(compileGlob(`${'*a'.repeat(50)}*b`)(name)).toBe(false);
    expect(compileGlob(`${'**/'.repeat(50)}b`)(Array.from({ length: 200 }, () => 'a').join('/'))).toBe(false);
  });
});
