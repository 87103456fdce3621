import type { FileChange } from '../../tool/v1/tool.js';

/** The agent an edit-feedback session serves, given when the agent is created or resumed. */
export interface EditFeedbackWorkspace {
  /** Canonical workspace root. */
  cwd: string;
  agentId: string;
  /** The agent's `toolSettings`: each provider reads its own key (`diagnostics`) and may be switched off there. */
  settings: Record<string, unknown>;
  /** The agent's environment (`AgentOptions.env`, default the process's). */
  env: Record<string, string | undefined>;
}

/** One edit tool call that changed files, after it finished without an error. */
export interface EditFeedbackRequest {
  toolCallId: string;
  toolName: string;
  runId: string;
  /** Every file the call changed, with the bytes before and after (`null`: did not exist / deleted). */
  changes: readonly FileChange[];
  /** Aborted when the runtime stops waiting (the provider's time budget or a cancel of the run). */
  signal: AbortSignal;
}

/** A provider's state for one agent: opened when the agent is created, closed when it closes. */
export interface EditFeedbackSession {
  /**
   * Text appended to the edit's tool result (diagnostics the edit introduced, say), or undefined for
   * nothing to say. The runtime waits at most `timeoutMs` and then appends a "feedback unavailable"
   * notice instead; a thrown error is appended as "unavailable: <message>".
   */
  afterEdit(request: EditFeedbackRequest): Promise<string | undefined>;
  /** How long afterEdit may take before the runtime gives up on it (default 3,000 ms). */
  readonly timeoutMs?: number;
  /** What the timeout notice names (`diagnostics`). */
  readonly label?: string;
  /** Releases what the session holds (a language server process); called once when the agent closes. */
  close(): Promise<void>;
}

/**
 * Feedback on an agent's edits, appended to the edit tool's result before the model reads it (the
 * language-server diagnostics of `@cairn/tools-lints`). `open` must not block: it starts any slow
 * work (a server) in the background, and returns undefined when the settings switch it off.
 */
export interface EditFeedbackProvider {
  open(workspace: EditFeedbackWorkspace): EditFeedbackSession | undefined;
}
