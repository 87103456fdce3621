import type { DiagnosticSeverity } from '../diagnostic.js';

/** One diagnostic of one document version, as a language server reported it (1-based positions). */
export interface ServerDiagnostic {
  line: number;
  column: number;
  severity: DiagnosticSeverity;
  /** `TS2322`, `reportMissingImports`; empty when the server gave none. */
  code: string;
  message: string;
}

interface LspDiagnostic {
  range: { start: { line: number; character: number } };
  severity?: number;
  code?: number | string;
  message: string;
  source?: string;
}

/** An LSP diagnostic (0-based range) in our shape; hints (severity 4) are dropped: they are not problems. */
export function fromLspDiagnostic(diagnostic: LspDiagnostic): ServerDiagnostic | undefined {
  if (diagnostic.severity === 4) return undefined;
  const severity: DiagnosticSeverity = diagnostic.severity === 2 ? 'warning' : diagnostic.severity === 3 ? 'info' : 'error';
  return {
    line: diagnostic.range.start.line + 1,
    column: diagnostic.range.start.character + 1,
    severity,
    code: diagnostic.code === undefined ? '' : String(diagnostic.code),
    message: diagnostic.message,
  };
}

interface TsserverDiagnostic {
  start: { line: number; offset: number };
  text: string;
  code?: number;
  category?: string;
}

/** A tsserver diagnostic (`semanticDiagnosticsSync`, 1-based) in our shape; suggestions are dropped. */
export function fromTsserverDiagnostic(diagnostic: TsserverDiagnostic): ServerDiagnostic | undefined {
  if (diagnostic.category === 'suggestion') return undefined;
  const severity: DiagnosticSeverity = diagnostic.category === 'warning' ? 'warning' : diagnostic.category === 'message' ? 'info' : 'error';
  return {
    line: diagnostic.start.line,
    column: diagnostic.start.offset,
    severity,
    code: diagnostic.code === undefined ? '' : `TS${diagnostic.code}`,
    message: diagnostic.text,
  };
}
