import { resolve } from 'node:path';
import type { ToolExecutionContext, ToolResultContent } from '@cairn/core';
import { canonicalWorkspaceRoot } from '@cairn/core/node';
import type { SandboxBackend } from '@cairn/tools-shell';
import { formatDiagnostic, sortDiagnostics } from './diagnostic.js';
import { runEslint } from './eslint-linter.js';
import { resolveLintScope } from './lint-scope.js';
import type { LinterReport } from './linter-report.js';
import { resolveLintsSettings } from './lints-settings.js';
import type { ReadLintsInput } from './read-lints-tool.js';
import { createLinterRunner } from './run-linter.js';
import { runTypeScript } from './typescript-linter.js';
import { warmServerReport } from './diagnostics/warm-lints.js';

/** read_lints' call, loaded at the first one (see read-lints-tool.ts for the tool). */
export async function executeReadLints(input: ReadLintsInput, context: ToolExecutionContext, sandboxBackend: SandboxBackend | undefined): Promise<ToolResultContent> {
  const settings = resolveLintsSettings(context.settings);
  const root = await canonicalWorkspaceRoot(context.cwd);
  const scope = await resolveLintScope(root, input.paths);
  const run = createLinterRunner(context, root, { timeoutMs: settings.timeoutMs, ...(sandboxBackend ? { sandboxBackend } : {}) });
  // The warm language server answers for the files it checks; otherwise the workspace's own tsc runs.
  const typescript = (await warmServerReport(scope, context.signal)) ?? (await runTypeScript(scope, run, settings.maxProjects));
  const reports: LinterReport[] = [typescript, await runEslint(scope, run)];
  const diagnostics = sortDiagnostics(reports.flatMap((report) => report.diagnostics)).filter(
    // Denied files (a denied .env, secrets) stay invisible here too.
    (diagnostic) => diagnostic.line === 0 || !context.isPathDenied(resolve(root, diagnostic.path), 'lints'),
  );
  const shown = diagnostics.slice(0, settings.maxDiagnostics);
  const header = reports.map((report) => `${report.name}: ${report.detail}`);
  const ran = reports.some((report) => report.status === 'ran');
  const lines = shown.map(formatDiagnostic);
  let summary: string;
  if (!ran) summary = notRunSummary(reports);
  else if (diagnostics.length === 0) summary = input.paths?.length ? 'No problems found in the given paths.' : 'No problems found.';
  else summary = `${count(diagnostics, 'error')} error(s), ${count(diagnostics, 'warning')} warning(s):`;
  const notice = diagnostics.length > shown.length ? [`[${diagnostics.length - shown.length} more diagnostics not shown; pass fewer paths to see them.]`] : [];
  return {
    content: [{ type: 'text', text: [...header, '', summary, ...lines, ...notice].join('\n') }],
    truncated: notice.length > 0,
    structuredContent: {
      linters: reports.map((report) => ({ name: report.name, status: report.status, detail: report.detail })),
      diagnostics: shown.map((diagnostic) => ({ ...diagnostic })),
      total: diagnostics.length,
    },
  };
}

function notRunSummary(reports: LinterReport[]): string {
  if (!reports.some((report) => report.status === 'not-run')) return 'No linter ran, so there are no diagnostics to report.';
  return (
    'No linter ran, so there are no diagnostics to report. The shell may not run the linters here; ' +
    'check your changes by reading them, or ask the user to run the type checker.'
  );
}

function count(diagnostics: ReadonlyArray<{ severity: string }>, severity: string): number {
  return diagnostics.filter((diagnostic) => diagnostic.severity === severity).length;
}
