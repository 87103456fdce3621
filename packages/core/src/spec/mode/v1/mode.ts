import type { ToolName } from '../../tool/v1/tool.js';

/** Which tools a mode offers. Enforced at the execution boundary, not only in the prompt. */
export interface ToolPolicy {
  /** Only tools with `readOnly: true` (plus `allow`) are offered and executable. */
  readOnly: boolean;
  /** Offered in addition even in a read-only mode (e.g. `plan`, `todo`, `switchMode`). */
  allow?: ToolName[];
  /** Never offered in this mode. */
  deny?: ToolName[];
  /** MCP and custom tools: all, only those with readOnlyHint, or none. */
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
  transitionsTo: Array<string | ModeTransition>;
  /** The mode subagents started from this mode run in. */
  subagentMode?: string;
}
