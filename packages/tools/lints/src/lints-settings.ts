/** What a linter asks to run: a JavaScript program of the workspace, run with Node. */
export interface LintCommand {
  /** The program's entry, relative to the workspace root (`node_modules/typescript/bin/tsc`). */
  program: string;
  /** Its arguments; paths in them are relative to the root, where it runs. */
  args: string[];
}

/** `toolSettings.lints`: read from `context.settings.lints`. */
export interface LintsSettings {
  /** Per linter run. Default 120 s. */
  timeoutMs?: number;
  /** Most diagnostic lines returned. Default 200. */
  maxDiagnostics?: number;
  /** Most tsconfig projects type-checked in one call. Default 4. */
  maxProjects?: number;
}

export interface ResolvedLintsSettings {
  timeoutMs: number;
  maxDiagnostics: number;
  maxProjects: number;
}

export function resolveLintsSettings(settings: Record<string, unknown>): ResolvedLintsSettings {
  const given = (typeof settings.lints === 'object' && settings.lints !== null ? settings.lints : {}) as LintsSettings;
  const positive = (value: unknown, fallback: number) => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : fallback);
  return {
    timeoutMs: positive(given.timeoutMs, 120_000),
    maxDiagnostics: positive(given.maxDiagnostics, 200),
    maxProjects: positive(given.maxProjects, 4),
  };
}
