import { access, constants } from 'node:fs/promises';
import type { EnvironmentPolicy } from './environment.js';

/** `toolSettings.shell` (arrives as `context.settings`). Every field is optional. */
export interface ShellToolSettings {
  /** Which variables look like secrets and are removed (see `secretEnvironmentNames`). */
  environment?: EnvironmentPolicy;
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

export function readShellSettings(settings: Record<string, unknown> | undefined): ShellToolSettings {
  return (settings ?? {}) as ShellToolSettings;
}
