import { relative, resolve } from 'node:path';
import { toPosix } from '@cairn/core/node';
import type { LintDiagnostic } from './diagnostic.js';
import { findInstalledPackage } from './find-linters.js';
import { findTsconfigProjects, isInScope, type LintScope } from './lint-scope.js';
import type { LinterReport } from './linter-report.js';
import { LinterNotRun, type RunLinterCommand } from './run-linter.js';

const locatedPattern = /^(.+?)\((\d+),(\d+)\): (error|warning|message) TS(\d+): (.*)$/;
const globalPattern = /^(error|warning|message) TS(\d+): (.*)$/;

/**
 * Parse `tsc --pretty false` output. Paths are relative to `processCwd`; indented continuation lines
 * (message chains) are joined onto their diagnostic. Pure.
 */
export function parseTscOutput(output: string, processCwd: string, root: string, projectPath: string): Array<LintDiagnostic & { absolute: string }> {
  const diagnostics: Array<LintDiagnostic & { absolute: string }> = [];
  for (const line of output.split(/\r?\n/)) {
    const located = locatedPattern.exec(line);
    if (located) {
      const absolute = resolve(processCwd, located[1]!);
      diagnostics.push({
        absolute,
        path: toPosix(relative(root, absolute)),
        line: Number(located[2]),
        column: Number(located[3]),
        severity: located[4] === 'message' ? 'info' : (located[4] as 'error' | 'warning'),
        message: located[6]!.trim(),
        source: `typescript TS${located[5]}`,
      });
      continue;
    }
    const global = globalPattern.exec(line);
    if (global) {
      diagnostics.push({
        absolute: projectPath,
        path: toPosix(relative(root, projectPath)),
        line: 0,
        column: 0,
        severity: global[1] === 'message' ? 'info' : (global[1] as 'error' | 'warning'),
        message: global[3]!.trim(),
        source: `typescript TS${global[2]}`,
      });
      continue;
    }
    const last = diagnostics.at(-1);
    if (last && /^\s+\S/.test(line)) last.message += ` ${line.trim()}`;
  }
  return diagnostics;
}

/** Type-check with the workspace's own TypeScript (`tsc --noEmit`), never writing build info. */
export async function runTypeScript(scope: LintScope, run: RunLinterCommand, maxProjects: number): Promise<LinterReport> {
  const typescript = findInstalledPackage(scope.root, 'typescript', 'tsc');
  if (!typescript) return { name: 'TypeScript', status: 'not-found', detail: 'not found (no node_modules/typescript in the workspace)', diagnostics: [] };
  const projects = findTsconfigProjects(scope);
  const label = `${typescript.version} (${typescript.displayPath})`;
  if (projects.length === 0) {
    return { name: 'TypeScript', status: 'not-configured', detail: `${label}: no tsconfig.json for the given paths, not run`, diagnostics: [] };
  }
  const checked = projects.slice(0, maxProjects);
  const diagnostics: LintDiagnostic[] = [];
  const failures: string[] = [];
  const warnings = new Set<string>();
  let timedOut = false;
  for (const project of checked) {
    const projectName = toPosix(relative(scope.root, project));
    let result: Awaited<ReturnType<RunLinterCommand>>;
    try {
      // `./` first, so a project folder named like an option is never read as one.
      result = await run({ program: typescript.program, args: ['--noEmit', '--pretty', 'false', '--incremental', 'false', '--composite', 'false', '-p', `./${projectName}`] });
    } catch (error) {
      if (error instanceof LinterNotRun) return { name: 'TypeScript', status: 'not-run', detail: `${label}: ${error.reason}`, diagnostics: [] };
      throw error;
    }
    if (result.warning) warnings.add(result.warning);
    if (result.timedOut) {
      timedOut = true;
      failures.push(`${projectName} timed out`);
      continue;
    }
    const parsed = parseTscOutput(result.stdout, scope.root, scope.root, project);
    if (parsed.length === 0 && result.exitCode !== 0) {
      failures.push(`${projectName}: tsc exited with ${result.exitCode}: ${firstLine(result.stderr || result.stdout)}`);
    }
    for (const diagnostic of parsed) {
      // Project-level problems (line 0) always matter; file diagnostics only for the asked-for files.
      if (diagnostic.line === 0 || isInScope(scope, diagnostic.absolute)) {
        const { absolute: _absolute, ...rest } = diagnostic;
        diagnostics.push(rest);
      }
    }
  }
  const projectNames = checked.map((project) => toPosix(relative(scope.root, project))).join(', ');
  const skipped = projects.length > checked.length ? `; ${projects.length - checked.length} more project(s) not checked` : '';
  const failed = failures.length ? `; ${failures.join('; ')}` : '';
  const warned = warnings.size ? `; ${[...warnings].join('; ')}` : '';
  const status = timedOut ? 'timed-out' : failures.length === checked.length ? 'failed' : 'ran';
  return { name: 'TypeScript', status, detail: `${label}, ${projectNames}${skipped}${failed}${warned}`, diagnostics };
}

function firstLine(text: string): string {
  return text.trim().split(/\r?\n/)[0]?.slice(0, 300) ?? '';
}
