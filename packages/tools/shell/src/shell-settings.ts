import { access, constants } from 'node:fs/promises';
import { ConfigurationError } from '@cairn/core';
import type { EnvironmentPolicy } from './environment.js';

/**
 * How commands that run without the OS sandbox are kept apart from the agent's process:
 * - `auto` (default): in their own PID namespace when bubblewrap can make one, else on the host
 *   with a warning in the result;
 * - `required`: refuse to run when no PID namespace can be made (a ConfigurationError naming the fix);
 * - `off`: plain host processes — they can read the agent's environment through /proc and outlive
 *   the run by leaving its process group (`setsid`). Only for hosts that need that.
 */
export type ProcessIsolation = 'auto' | 'required' | 'off';

/** `toolSettings.shell` (read from `context.settings.shell`, or the flat bag). Every field is optional. */
export interface ShellToolSettings {
  /** Which variables reach commands: `{ pass: ['DATABASE_URL', 'MYAPP_*'], set: { CI: '1' } }`. */
  env?: EnvironmentPolicy;
  /** Older name of `env` (`keep`, `remove`, `set`); both are merged. */
  environment?: EnvironmentPolicy;
  /** See ProcessIsolation; default `auto`. */
  processIsolation?: ProcessIsolation;
  /** Shell used for `-c`; default /bin/bash, else /bin/sh. */
  shell?: string;
  /** Default timeout when the call gives none (120 000 ms). */
  defaultTimeoutMs?: number;
  /** Upper bound for `timeout_ms` (600 000 ms). */
  maxTimeoutMs?: number;
  /** Time between SIGTERM and SIGKILL (2 000 ms). */
  killGraceMs?: number;
  /** Output kept from the start and the end (8 KiB / 24 KiB). */
  headBytes?: number;
  tailBytes?: number;
  /** Live output streamed as shell-output-delta before it pauses (256 KiB). */
  streamBytes?: number;
  /** Background commands one process may have running (16). */
  maxBackground?: number;
}

export const shellDefaults = {
  defaultTimeoutMs: 120_000,
  maxTimeoutMs: 600_000,
  killGraceMs: 2_000,
  headBytes: 8 * 1024,
  tailBytes: 24 * 1024,
  streamBytes: 256 * 1024,
  maxBackground: 16,
};

let defaultShell: Promise<string> | undefined;

/** /bin/bash when present, otherwise /bin/sh. */
export function findDefaultShell(): Promise<string> {
  defaultShell ??= access('/bin/bash', constants.X_OK).then(
    () => '/bin/bash',
    () => '/bin/sh',
  );
  return defaultShell;
}

const isolationValues: readonly ProcessIsolation[] = ['auto', 'required', 'off'];

/**
 * The runtime hands tools the whole `toolSettings` bag: the shell's own part is `settings.shell`;
 * a bag without it (a hand-built context) is read flat.
 */
export function readShellSettings(settings: Record<string, unknown> | undefined): ShellToolSettings {
  const scoped = settings?.shell;
  const shellSettings = (scoped && typeof scoped === 'object' ? scoped : (settings ?? {})) as ShellToolSettings;
  const isolation = shellSettings.processIsolation;
  if (isolation !== undefined && !isolationValues.includes(isolation)) {
    throw new ConfigurationError(`toolSettings.shell.processIsolation must be one of ${isolationValues.join(', ')}; got ${JSON.stringify(isolation)}.`);
  }
  return shellSettings;
}

/** `env` and the older `environment` together. */
export function environmentPolicy(settings: ShellToolSettings): EnvironmentPolicy {
  const parts = [settings.environment ?? {}, settings.env ?? {}];
  return {
    pass: parts.flatMap((part) => [...(part.pass ?? []), ...(part.keep ?? [])]),
    remove: parts.flatMap((part) => part.remove ?? []),
    set: Object.assign({}, ...parts.map((part) => part.set ?? {})),
  };
}
