import type { LintDiagnostic } from './diagnostic.js';

/** What one linter did in a call, for the report's header and the structured result. */
export interface LinterReport {
  name: string;
  /** `not-run`: found and configured, but the shell's permissions do not let it run. */
  status: 'ran' | 'not-found' | 'not-configured' | 'not-run' | 'failed' | 'timed-out';
  /** One sentence: version and project, or why it did not run. */
  detail: string;
  diagnostics: LintDiagnostic[];
}
