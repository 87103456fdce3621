import type { WorkspaceRule } from '../config/rules-loader.js';
import type { RetryPolicy } from '../model-call/retry-policy.js';
import type { ResolvedModel } from '../registry/registry.js';
import type { ConversationStep, InteractionUpdate } from '../spec/events/v1/index.js';
import type { ModelMessage } from '../spec/language-model/v1/index.js';
import type { ModeDefinition } from '../spec/mode/v1/index.js';
import type { AgentStore } from '../spec/store/v1/index.js';
import type { FileChange, SandboxRequirement, ToolDefinition, ToolName } from '../spec/tool/v1/index.js';
import type { AgentEditFeedback } from './agent-edit-feedback.js';
import type { AgentHooks, CompactionSettings } from './compaction.js';
import type { ConversationCheckpointer } from './conversation-checkpoint.js';
import type { RunResumePoint } from '../machine/run-machine-types.js';
import type { RunApprovalSettings } from './run-approvals.js';
import type { RunEventLog } from './run-event-log.js';
import type { PermissionVerdict } from './tool-runner.js';

/** Everything one run needs, prepared by the agent before the run machine starts. */
export interface RunPlan {
  runId: string;
  agentId: string;
  cwd: string;
  /** The conversation before this run, plus the run's user message as the last entry. */
  messages: ModelMessage[];
  state: Record<string, unknown>;
  mode: string;
  resolveMode(id: string): ModeDefinition | undefined;
  model: ResolvedModel;
  maxSteps: number;
  /** May change between steps (an MCP server's list_changed): read it each time; a new array is a new list. */
  tools: ToolDefinition[];
  allow?: ToolName[];
  deny?: ToolName[];
  checkPermission(tool: ToolDefinition, input: unknown, paths: string[], mode: string): Promise<PermissionVerdict>;
  isPathDenied(absolutePath: string, toolId: string): boolean;
  /** The files the read deny rules hide, for the shell's OS-level masks (ToolExecutionContext.readDeniedFiles). */
  readDeniedFiles?(): Promise<{ paths: string[]; complete: boolean }>;
  sandboxFor(mode: ModeDefinition): SandboxRequirement;
  store: AgentStore;
  checkpointer: ConversationCheckpointer;
  log: RunEventLog;
  systemPrompt: string;
  promptCacheKey: string;
  callParams?: Record<string, string | number | boolean>;
  retry?: Partial<RetryPolicy>;
  env: Record<string, string | undefined>;
  toolSettings: Record<string, unknown>;
  /** Aborted by cancel; reaches the model stream and every running tool. */
  signal: AbortSignal;
  onDelta?: (event: { update: InteractionUpdate }) => void | Promise<void>;
  /** The caller watches every update (a send's `onDelta`): streamed updates are written and handed over one by one. */
  watchesUpdates?: boolean;
  onStep?: (event: { step: ConversationStep }) => void | Promise<void>;
  onFileChange(change: FileChange, toolCallId: string): Promise<void>;
  /** Feedback appended to the results of calls that changed files (run-tool-calls.ts); absent = none. */
  editFeedback?: AgentEditFeedback;
  /** How approvals are asked and answered (awaitingApproval). */
  approvals: RunApprovalSettings;
  /** Whether anyone can answer a mode-switch approval; if not, such a switch is refused at once (headless). */
  canApproveModeSwitch: boolean;
  /** Set when this process continues a run another process left waiting for approval. */
  resume?: RunResumePoint;
  /** Cap on the tokens of one turn's tool outputs together (the compaction tail's share of the budget). */
  turnOutputTokens: number;
  /** Loaded rule files: glob rules are injected as reminders once a matching file is touched. */
  rules?: readonly WorkspaceRule[];
  /** When and how far the conversation is compacted; absent = no compaction. */
  compaction?: CompactionSettings;
  hooks?: AgentHooks;
  /** Called when a switch is applied mid-run (the checkpoint saved at the next step records it for a crash). */
  onModeChanged?(mode: string): void;
  /** Offer mode-restricted tools too (they are still refused when called), for a byte-stable tool list. */
  stableToolList?: boolean;
}
