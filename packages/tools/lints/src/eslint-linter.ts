import { isAbsolute, relative, resolve } from 'node:path';
import { toPosix } from '@cairn/core/node';
import type { LintDiagnostic } from './diagnostic.js';
import { findEslintConfig, findInstalledPackage } from './find-linters.js';
import { isInScope, type LintScope } from './lint-scope.js';
import type { LinterReport } from './linter-report.js';
import { LinterNotRun, type RunLinterCommand } from './run-linter.js';

interface EslintFileResult {
  filePath: string;
  messages: Array<{ ruleId: string | null; severity: number; message: string; line?: number; column?: number; fatal?: boolean }>;
}

/** Parse `eslint --format json` output (an array of file results). Pure. */
export function parseEslintJson(output: string, root: string): Array<LintDiagnostic & { absolute: string }> {
  const start = output.indexOf('[');
  if (start === -1) throw new Error('ESLint printed no JSON result');
  const results = JSON.parse(output.slice(start)) as EslintFileResult[];
  const diagnostics: Array<LintDiagnostic & { absolute: string }> = [];
  for (const file of results) {
    const absolute = isAbsolute(file.filePath) ? file.filePath : resolve(root, file.filePath);
    for (const message of file.messages) {
      // Explicitly passed files that the config ignores produce a warning that is not a problem in the code.
      if (message.ruleId === null && !message.fatal && message.message.startsWith('File ignored')) continue;
      diagnostics.push({
        absolute,
        path: toPosix(relative(root, absolute)),
        line: message.line ?? 0,
        column: message.column ?? 0,
        severity: message.severity >= 2 ? 'error' : 'warning',
        message: message.message.replace(/\s+/g, ' ').trim(),
        source: message.ruleId ? `eslint ${message.ruleId}` : 'eslint',
      });
    }
  }
  return diagnostics;
}

/** Lint with the workspace's own ESLint and configuration, when both exist. */
export async function runEslint(scope: LintScope, run: RunLinterCommand): Promise<LinterReport> {
  const eslint = findInstalledPackage(scope.root, 'eslint', 'eslint');
  if (!eslint) return { name: 'ESLint', status: 'not-found', detail: 'not found (no node_modules/eslint in the workspace)', diagnostics: [] };
  const label = `${eslint.version} (${eslint.displayPath})`;
  const config = findEslintConfig(scope.root);
  if (!config) return { name: 'ESLint', status: 'not-configured', detail: `${label}: no ESLint configuration at the workspace root, not run`, diagnostics: [] };
  // `./` first, so a file named like an option (`-c.js`) is never read as one.
  const patterns = scope.targets.length === 0 ? ['.'] : scope.targets.map((target) => (target.relative ? `./${target.relative}` : '.'));
  let result: Awaited<ReturnType<RunLinterCommand>>;
  try {
    result = await run({ program: eslint.program, args: ['--format', 'json', '--no-error-on-unmatched-pattern', ...patterns] });
  } catch (error) {
    if (error instanceof LinterNotRun) return { name: 'ESLint', status: 'not-run', detail: `${label}: ${error.reason}`, diagnostics: [] };
    throw error;
  }
  if (result.timedOut) return { name: 'ESLint', status: 'timed-out', detail: `${label}: timed out`, diagnostics: [] };
  // Exit 0: clean, 1: problems found, 2: ESLint itself failed (bad config, crash).
  if (result.exitCode !== 0 && result.exitCode !== 1) {
    // Skip ESLint's own banner ("Oops! Something went wrong! :(", "ESLint: 10.x") to reach the cause.
    const reason = (result.stderr || result.stdout)
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('Oops!') && !/^ESLint: \d/.test(line))
      .slice(0, 3)
      .join(' ')
      .slice(0, 400);
    return { name: 'ESLint', status: 'failed', detail: `${label}: failed with exit code ${result.exitCode}: ${reason}`, diagnostics: [] };
  }
  let parsed: Array<LintDiagnostic & { absolute: string }>;
  try {
    parsed = parseEslintJson(result.stdout, scope.root);
  } catch (error) {
    return { name: 'ESLint', status: 'failed', detail: `${label}: unreadable output (${(error as Error).message})`, diagnostics: [] };
  }
  const diagnostics = parsed.filter((diagnostic) => isInScope(scope, diagnostic.absolute)).map(({ absolute: _absolute, ...rest }) => rest);
  return { name: 'ESLint', status: 'ran', detail: `${label}, config ${config}${result.warning ? `; ${result.warning}` : ''}`, diagnostics };
}
