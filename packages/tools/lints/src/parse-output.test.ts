import { describe, expect, it } from 'vitest';
import { formatDiagnostic, sortDiagnostics } from './diagnostic.js';
import { parseEslintJson } from './eslint-linter.js';
import { linterEnvironment } from './run-command.js';
import { parseTscOutput } from './typescript-linter.js';

describe('parseTscOutput', () => {
  it('parses located diagnostics, joins message chains and keeps project-level errors', () => {
    const output = [
      "src/a.ts(3,7): error TS2322: Type '{ a: string; }' is not assignable to type 'Shape'.",
      "  Property 'b' is missing in type '{ a: string; }' but required in type 'Shape'.",
      'lib/b.ts(10,1): warning TS6133: \'x\' is declared but its value is never read.',
      "error TS5083: Cannot read file '/w/tsconfig.base.json'.",
    ].join('\n');
    const diagnostics = parseTscOutput(output, '/w', '/w', '/w/tsconfig.json').map(formatDiagnostic);
    expect(diagnostics).toEqual([
      "src/a.ts:3:7: error Type '{ a: string; }' is not assignable to type 'Shape'. Property 'b' is missing in type '{ a: string; }' but required in type 'Shape'. (typescript TS2322)",
      "lib/b.ts:10:1: warning 'x' is declared but its value is never read. (typescript TS6133)",
      "tsconfig.json: error Cannot read file '/w/tsconfig.base.json'. (typescript TS5083)",
    ]);
  });
});

describe('parseEslintJson', () => {
  it('maps ESLint JSON results (severity, rule, fatal parse errors) and skips ignored-file notices', () => {
    const output = JSON.stringify([
      {
        filePath: '/w/src/a.js',
        messages: [
          { ruleId: 'no-unused-vars', severity: 2, message: "'x' is assigned a value but never used.", line: 1, column: 7, nodeType: 'Identifier' },
          { ruleId: 'prefer-const', severity: 1, message: "'y' is never reassigned.\nUse 'const' instead.", line: 2, column: 5 },
        ],
        errorCount: 1,
        warningCount: 1,
      },
      { filePath: '/w/src/broken.js', messages: [{ ruleId: null, fatal: true, severity: 2, message: 'Parsing error: Unexpected token )', line: 4, column: 12 }] },
      { filePath: '/w/dist/out.js', messages: [{ ruleId: null, severity: 1, message: 'File ignored because of a matching ignore pattern.' }] },
    ]);
    const lines = sortDiagnostics(parseEslintJson(output, '/w')).map(formatDiagnostic);
    expect(lines).toEqual([
      "src/a.js:1:7: error 'x' is assigned a value but never used. (eslint no-unused-vars)",
      'src/broken.js:4:12: error Parsing error: Unexpected token ) (eslint)',
      "src/a.js:2:5: warning 'y' is never reassigned. Use 'const' instead. (eslint prefer-const)",
    ]);
  });
});

describe('linterEnvironment', () => {
  it('passes PATH and HOME but no secrets of the agent', () => {
    const env = linterEnvironment({ PATH: '/bin', HOME: '/home/u', OPENAI_API_KEY: 'sk-secret', NODE_OPTIONS: '--require evil.js' });
    expect(env.PATH).toBe('/bin');
    expect(env.HOME).toBe('/home/u');
    expect(env).not.toHaveProperty('OPENAI_API_KEY');
    expect(env).not.toHaveProperty('NODE_OPTIONS');
  });
});
