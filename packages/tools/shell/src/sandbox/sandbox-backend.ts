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
}

export interface SandboxedCommand {
  file: string;
  args: string[];
  env: Record<string, string>;
  /** Undo host-side preparations (mount points created for protected paths that did not exist). */
  cleanup(): Promise<void>;
}

/** An OS sandbox: bubblewrap on Linux today; macOS seatbelt can implement the same interface. */
export interface SandboxBackend {
  readonly name: string;
  isAvailable(): Promise<{ available: boolean; reason?: string }>;
  wrap(command: string, options: SandboxWrapOptions): Promise<SandboxedCommand>;
}
