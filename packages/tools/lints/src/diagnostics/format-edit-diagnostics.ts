import type { ServerDiagnostic } from './server-diagnostic.js';

/** What was learned about one edited file. */
export type FileDiagnosticsReport =
  | { path: string; status: 'checked'; server: string; introduced: ServerDiagnostic[]; preExisting: ServerDiagnostic[] }
  | { path: string; status: 'starting' | 'timeout' | 'failed' | 'skipped'; server: string; reason?: string };

const severityOrder = { error: 0, warning: 1, info: 2 } as const;

/**
 * The text appended to an edit's result: one line per file, then the diagnostics the edit
 * introduced, errors first, at most `maxDiagnostics` lines in all. A file whose check did not
 * finish says "diagnostics unavailable", never that it is clean.
 */
export function formatEditDiagnostics(reports: readonly FileDiagnosticsReport[], options: { maxDiagnostics: number; timeoutMs: number }): string | undefined {
  if (reports.length === 0) return undefined;
  let budget = options.maxDiagnostics;
  const lines: string[] = [];
  for (const report of reports) {
    if (report.status !== 'checked') {
      lines.push(`${report.path}: ${unavailable(report, options.timeoutMs)}`);
      continue;
    }
    const { introduced, preExisting } = report;
    const before = preExisting.length ? `${count(preExisting)} pre-existing, not from this edit` : '';
    if (introduced.length === 0) {
      lines.push(preExisting.length ? `${report.path}: no new problems (${before}).` : `${report.path}: clean, no errors or warnings.`);
      continue;
    }
    lines.push(`${report.path}: ${count(introduced)} introduced by this edit${before ? ` (and ${before})` : ''}:`);
    const sorted = [...introduced].sort((a, b) => severityOrder[a.severity] - severityOrder[b.severity] || a.line - b.line || a.column - b.column);
    const shown = sorted.slice(0, Math.max(budget, 0));
    budget -= shown.length;
    for (const diagnostic of shown) lines.push(`  ${report.path}:${diagnostic.line}:${diagnostic.column}: ${diagnostic.severity}${diagnostic.code ? ` ${diagnostic.code}` : ''}: ${oneMessage(diagnostic.message)}`);
    if (shown.length < sorted.length) lines.push(`  [${sorted.length - shown.length} more not shown; call read_lints on the file to see them all.]`);
  }
  const servers = [...new Set(reports.map((report) => report.server))].join(', ');
  return `<diagnostics source="${servers}">\n${lines.join('\n')}\n</diagnostics>`;
}

function unavailable(report: Extract<FileDiagnosticsReport, { status: 'starting' | 'timeout' | 'failed' | 'skipped' }>, timeoutMs: number): string {
  switch (report.status) {
    case 'starting':
      return 'diagnostics unavailable (language server starting); this does not mean the file has no errors.';
    case 'timeout':
      return `diagnostics unavailable (no answer from the language server within ${Math.round(timeoutMs / 100) / 10} s); this does not mean the file has no errors.`;
    case 'skipped':
      return `not checked: ${report.reason ?? 'skipped'}.`;
    default:
      return `diagnostics unavailable: ${report.reason ?? 'the language server failed'}.`;
  }
}

function count(diagnostics: readonly ServerDiagnostic[]): string {
  const errors = diagnostics.filter((item) => item.severity === 'error').length;
  const warnings = diagnostics.filter((item) => item.severity === 'warning').length;
  const others = diagnostics.length - errors - warnings;
  const parts = [plural(errors, 'error'), plural(warnings, 'warning'), plural(others, 'message')].filter(Boolean);
  return parts.join(', ');
}

function plural(value: number, word: string): string {
  return value === 0 ? '' : `${value} ${word}${value === 1 ? '' : 's'}`;
}

/** Message chains (TypeScript's nested explanations) on one line, cut at 400 characters. */
function oneMessage(message: string): string {
  const flat = message.split(/\r?\n/).map((line) => line.trim()).filter(Boolean).join(' ');
  return flat.length > 400 ? `${flat.slice(0, 400)}…` : flat;
}
