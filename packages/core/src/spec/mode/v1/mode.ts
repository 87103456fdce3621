import type { ToolName } from '../../tool/v1/tool.js';

/** Which tools a mode offers. Enforced at the execution boundary, not only in the prompt. */
export interface ToolPolicy {
  /** Only tools with `readOnly: true` (plus `allow`) are offered and executable. */
  readOnly: boolean;
  /** Offered in addition even in a read-only mode (e.g. `plan`, `todo`, `switchMode`). */
  allow?: ToolName[];
  /** Never offered in this mode. */
  deny?: ToolName[];
  /**
   * MCP and custom tools: all, only the read-only ones (`readOnly: true` on the tool; an MCP
   * server's `readOnlyHint` annotation becomes that flag), or none.
   */
  mcp: 'all' | 'readOnlyHint' | 'none';
  /** The shell is offered only inside an OS sandbox with this profile (read-only modes). */
  shell?: 'host' | 'sandbox-read-only' | 'sandbox-workspace-write' | 'off';
}

export interface ModeReminderContext {
  step: number;
  /** Tool names called so far in this run. */
  toolCalls: string[];
  state: Record<string, unknown>;
  /**
   * Files changed by tools in this run (workspace-relative), with their current text (null when
   * deleted, binary or too large), so a reminder can check e.g. that instrumentation was removed.
   */
  editedFiles?: Array<{ path: string; text: string | null }>;
}

export interface ModeTransition {
  mode: string;
  /** Leaving through `switch_mode` needs the user's approval (plan -> agent). */
  requiresApproval?: boolean;
}

/** Where a mode may be entered from through `switch_mode`: a mode id, or `'*'` for every mode. */
export interface ModeEntry {
  mode: string;
  /** Entering from there needs the user's approval. */
  requiresApproval?: boolean;
}

export interface ModeDefinition {
  id: string;
  description: string;
  /** Texts of the mode block of the system prompt. */
  promptBlocks: string[];
  toolPolicy: ToolPolicy;
  /** Dynamic instruction appended in `<system_reminder>`. */
  reminder?: string | ((context: ModeReminderContext) => string | undefined);
  /** OS sandbox profile for the shell in this mode: 'inherit' = the agent's sandbox options. */
  sandboxProfile: 'inherit' | 'read-only' | 'workspace-write';
  /** Modes `switch_mode` may move to from this one. */
  transitionsTo: Array<string | ModeTransition>;
  /**
   * Modes `switch_mode` may come from into this one (`'*'` = any mode), so a plugin's mode is
   * reachable without re-registering the modes it is entered from. Merged with their
   * `transitionsTo` (findModeTransition): when either side requires approval, the switch does.
   * The rights check still applies: entering a mode with more rights than the one the user chose
   * needs the user's approval whatever this says.
   */
  enterableFrom?: Array<string | ModeEntry>;
  /** The mode subagents started from this mode run in. */
  subagentMode?: string;
}
