export type DiagnosticSeverity = 'error' | 'warning' | 'info';

/** One problem a linter reported, with the path relative to the workspace root (`/` separators). */
export interface LintDiagnostic {
  path: string;
  /** 1-based; 0 when the linter gave no position (a configuration problem). */
  line: number;
  column: number;
  severity: DiagnosticSeverity;
  message: string;
  /** `typescript TS2322`, `eslint no-unused-vars`. */
  source: string;
}

/** `path:line:column: severity message (source)`: the shape compilers and editors print. */
export function formatDiagnostic(diagnostic: LintDiagnostic): string {
  const position = diagnostic.line > 0 ? `:${diagnostic.line}:${diagnostic.column}` : '';
  return `${diagnostic.path}${position}: ${diagnostic.severity} ${diagnostic.message} (${diagnostic.source})`;
}

const severityOrder: Record<DiagnosticSeverity, number> = { error: 0, warning: 1, info: 2 };

/** Errors first, then by path and position, so a capped list keeps the problems that matter. */
export function sortDiagnostics(diagnostics: LintDiagnostic[]): LintDiagnostic[] {
  return [...diagnostics].sort(
    (a, b) =>
      severityOrder[a.severity] - severityOrder[b.severity] || a.path.localeCompare(b.path) || a.line - b.line || a.column - b.column,
  );
}
