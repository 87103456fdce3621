import { resolve } from 'node:path';
import { defineTool, type ToolDefinition, type ToolResultContent } from '@cairn/core';
import { canonicalWorkspaceRoot } from '@cairn/core/node';
import type { SandboxBackend } from '@cairn/tools-shell';
import type { FromSchema } from 'json-schema-to-ts';
import { formatDiagnostic, sortDiagnostics } from './diagnostic.js';
import { runEslint } from './eslint-linter.js';
import { resolveLintScope } from './lint-scope.js';
import type { LinterReport } from './linter-report.js';
import { resolveLintsSettings } from './lints-settings.js';
import { createLinterRunner } from './run-linter.js';
import { runTypeScript } from './typescript-linter.js';

// Keys in the order zod used to emit them: the JSON providers see, and their prompt caches, stay the same.
export const readLintsInputSchema = {
  jsonSchema: {
    type: 'object',
    properties: {
      paths: {
        description: 'Files or folders to report on, relative to the workspace root. Leave out for the whole workspace.',
        type: 'array',
        items: { type: 'string', minLength: 1 },
      },
    },
  },
} as const;

export type ReadLintsInput = FromSchema<typeof readLintsInputSchema.jsonSchema>;

export interface ReadLintsToolOptions {
  /** The OS sandbox linters run in when `context.sandbox.profile` is not `none`; default: the shell's (bubblewrap on Linux). */
  sandboxBackend?: SandboxBackend;
}

/**
 * `read_lints`. The linters are programs of the workspace, so they run like a shell command would:
 * only when the shell may run that command, and in the call's sandbox (see run-linter.ts).
 */
export function createReadLintsTool(options: ReadLintsToolOptions = {}): ToolDefinition<ReadLintsInput> {
  return defineTool<ReadLintsInput>({
    id: 'lints',
    name: 'read_lints',
    description: [
      "Read diagnostics (type errors, lint errors and warnings) from the workspace's own TypeScript compiler and ESLint.",
      'Call it after editing files to check that you introduced no errors. Pass the files you changed, or no paths for the whole workspace.',
      'The linters run like shell commands: where the shell may not run them, they are reported as not run.',
    ].join(' '),
    inputSchema: readLintsInputSchema,
    readOnly: true,
    category: 'lints',
    timeoutMs: 300_000,
    paths: (input) => input.paths ?? [],
    async execute(input, context): Promise<ToolResultContent> {
      const settings = resolveLintsSettings(context.settings);
      const root = await canonicalWorkspaceRoot(context.cwd);
      const scope = await resolveLintScope(root, input.paths);
      const run = createLinterRunner(context, root, { timeoutMs: settings.timeoutMs, ...(options.sandboxBackend ? { sandboxBackend: options.sandboxBackend } : {}) });
      const reports: LinterReport[] = [await runTypeScript(scope, run, settings.maxProjects), await runEslint(scope, run)];
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
    },
  });
}

export const readLintsTool: ToolDefinition<ReadLintsInput> = createReadLintsTool();

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
