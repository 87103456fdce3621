import type { ServerDiagnostic } from './server-diagnostic.js';

/** The diagnostics after an edit, split into those the edit introduced and those that were there before. */
export interface IntroducedDiagnostics {
  introduced: ServerDiagnostic[];
  preExisting: ServerDiagnostic[];
}

/**
 * Which of `after` the edit introduced: a diagnostic with the same code and message as one in
 * `before` is pre-existing when it sits on the line that line moved to (lines below the edited
 * region shift by the lines the edit added or removed), or, failing that, anywhere (the edit moved
 * it). Each `before` diagnostic accounts for at most one `after` diagnostic. Pure.
 */
export function splitIntroduced(before: readonly ServerDiagnostic[], after: readonly ServerDiagnostic[], beforeText: string, afterText: string): IntroducedDiagnostics {
  const moved = lineMapping(beforeText, afterText);
  const unmatched = before.map((diagnostic) => ({ diagnostic, line: moved(diagnostic.line) }));
  const take = (index: number) => unmatched.splice(index, 1);
  const sameProblem = (a: ServerDiagnostic, b: ServerDiagnostic) => a.code === b.code && a.message === b.message;
  const introduced: ServerDiagnostic[] = [];
  const preExisting: ServerDiagnostic[] = [];
  const rest: ServerDiagnostic[] = [];
  for (const diagnostic of after) {
    const index = unmatched.findIndex((old) => old.line === diagnostic.line && sameProblem(old.diagnostic, diagnostic));
    if (index >= 0) {
      take(index);
      preExisting.push(diagnostic);
    } else rest.push(diagnostic);
  }
  for (const diagnostic of rest) {
    const index = unmatched.findIndex((old) => sameProblem(old.diagnostic, diagnostic));
    if (index >= 0) {
      take(index);
      preExisting.push(diagnostic);
    } else introduced.push(diagnostic);
  }
  return { introduced, preExisting };
}

/** Where each 1-based line of `before` is in `after`: unchanged above the edit, shifted below it, undefined inside it. */
export function lineMapping(beforeText: string, afterText: string): (line: number) => number | undefined {
  const before = beforeText.split('\n');
  const after = afterText.split('\n');
  let prefix = 0;
  while (prefix < before.length && prefix < after.length && before[prefix] === after[prefix]) prefix += 1;
  let suffix = 0;
  while (suffix < before.length - prefix && suffix < after.length - prefix && before[before.length - 1 - suffix] === after[after.length - 1 - suffix]) suffix += 1;
  const shift = after.length - before.length;
  return (line) => {
    if (line <= prefix) return line;
    if (line > before.length - suffix) return line + shift;
    return undefined;
  };
}
