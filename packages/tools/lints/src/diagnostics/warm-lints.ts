import { readFile } from 'node:fs/promises';
import type { LintDiagnostic } from '../diagnostic.js';
import type { LintScope } from '../lint-scope.js';
import type { LinterReport } from '../linter-report.js';

/**
 * read_lints' TypeScript part from the warm language server of the diagnostics after edits, when
 * every given path is a file it checks: no `tsc` process, and the same answer the edits got.
 * Undefined when there is no warm server, no paths (the whole workspace: `tsc` checks every project
 * file, the server only open ones) or a folder among them; read_lints then runs the workspace's
 * own linters.
 */
export async function warmServerReport(scope: LintScope, signal: AbortSignal): Promise<LinterReport | undefined> {
  if (scope.targets.length === 0 || scope.targets.some((target) => target.isDirectory)) return undefined;
  const { warmServerFor } = await import('./server-pool.js');
  const servers = scope.targets.map((target) => warmServerFor(scope.root, target.absolute));
  const server = servers[0];
  if (!server || servers.some((other) => other !== server)) return undefined;
  const diagnostics: LintDiagnostic[] = [];
  for (const target of scope.targets) {
    const text = await readFile(target.absolute, 'utf8');
    for (const item of await server.diagnose(target.absolute, text, signal)) {
      diagnostics.push({ path: target.relative, line: item.line, column: item.column, severity: item.severity, message: item.message.split(/\r?\n/).map((line) => line.trim()).join(' '), source: `${server.config.id}${item.code ? ` ${item.code}` : ''}` });
    }
  }
  const name = server.config.id === 'typescript' ? 'TypeScript' : server.config.id;
  return { name, status: 'ran', detail: `the warm language server of the diagnostics after edits (${server.config.id === 'typescript' ? 'typescript-language-server with Cairn\'s TypeScript' : server.config.id}), ${scope.targets.length} file(s)`, diagnostics };
}
