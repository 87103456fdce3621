import type { SandboxRequirement } from '@cairn/core';

export interface LintCommand {
  file: string;
  args: string[];
  cwd: string;
}

/** `toolSettings.lints`: read from `context.settings.lints`. */
export interface LintsSettings {
  /** Per linter run. Default 120 s. */
  timeoutMs?: number;
  /** Most diagnostic lines returned. Default 200. */
  maxDiagnostics?: number;
  /** Most tsconfig projects type-checked in one call. Default 4. */
  maxProjects?: number;
  /**
   * Wraps a linter command in an OS sandbox (the shell pack's bubblewrap/seatbelt wrapper). Linters
   * run the workspace's own code, so when the call must be sandboxed and no wrapper is given, the
   * tool refuses instead of running on the host.
   */
  wrapCommand?: (command: LintCommand, sandbox: SandboxRequirement) => LintCommand;
}

export interface ResolvedLintsSettings {
  timeoutMs: number;
  maxDiagnostics: number;
  maxProjects: number;
  wrapCommand?: LintsSettings['wrapCommand'];
}

export function resolveLintsSettings(settings: Record<string, unknown>): ResolvedLintsSettings {
  const given = (typeof settings.lints === 'object' && settings.lints !== null ? settings.lints : {}) as LintsSettings;
  const positive = (value: unknown, fallback: number) => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : fallback);
  return {
    timeoutMs: positive(given.timeoutMs, 120_000),
    maxDiagnostics: positive(given.maxDiagnostics, 200),
    maxProjects: positive(given.maxProjects, 4),
    ...(typeof given.wrapCommand === 'function' ? { wrapCommand: given.wrapCommand } : {}),
  };
}
