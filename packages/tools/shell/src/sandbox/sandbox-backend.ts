import type { QuarantinedRepository } from './repository-audit.js';
import type { WorkspaceScan } from './workspace-scan.js';

export type SandboxProfile = 'read-only' | 'workspace-write';

export interface SandboxWrapOptions {
  profile: SandboxProfile;
  /** Canonical workspace root: writable in `workspace-write`, read-only in `read-only`. */
  workspaceRoot: string;
  /** Working directory of the command (inside the workspace). */
  cwd: string;
  /** The shell that runs the command inside the sandbox, e.g. `/bin/bash`. */
  shell: string;
  /** The (already filtered) environment of the command. */
  env: Record<string, string>;
  /** Hosts the command may reach; empty = no network at all. */
  networkAllow: string[];
  /** Host folders made visible read-only inside the sandbox (the shell tool's log folder). */
  readOnlyPaths?: string[];
  /** Host files and folders the read deny rules hide: made unreadable inside (see deny-masks.ts). */
  maskedPaths?: string[];
  /** The agent's own settings (`agentSettingsLocations` of @cairn/core/node): read-only, existing or not, where they lie in the workspace. */
  protectedPaths?: Array<{ path: string; kind: 'dir' | 'file' }>;
  /** A walk of the workspace made just before (the shell tool makes one anyway); without it the backend walks itself. */
  workspaceScan?: WorkspaceScan;
}

/** What the sandbox found and undid after a `workspace-write` command. */
export interface SandboxCleanupReport {
  /** Repositories the command created; renamed away so the host's git and editors never obey them. */
  quarantined: QuarantinedRepository[];
  /** The walk made after the command, for callers that compare files before and after. */
  workspaceScan?: WorkspaceScan;
  /** Limits of what was checked (a workspace too large to walk completely). */
  notes: string[];
}

export interface SandboxedCommand {
  file: string;
  args: string[];
  env: Record<string, string>;
  /**
   * Call once the command (and everything it started) has ended: undoes host-side preparations
   * (placeholders for protected paths that did not exist) and, for `workspace-write`, quarantines
   * repositories the command created.
   */
  cleanup(): Promise<void>;
  /** What `cleanup` found and undid (`workspace-write`), once it has run. */
  cleanupReport?(): SandboxCleanupReport | undefined;
}

/** An OS sandbox: bubblewrap on Linux today; macOS seatbelt can implement the same interface. */
export interface SandboxBackend {
  readonly name: string;
  isAvailable(): Promise<{ available: boolean; reason?: string }>;
  wrap(command: string, options: SandboxWrapOptions): Promise<SandboxedCommand>;
}
