import type { RunResumePoint } from '../machine/run-machine-types.js';
import type { ResolvedModel } from '../registry/registry.js';
import type { InteractionUpdate } from '../spec/events/v1/index.js';
import type { ModelMessage } from '../spec/language-model/v1/index.js';
import type { AgentStore, RunRecord } from '../spec/store/v1/index.js';
import type { AgentEditFeedback } from './agent-edit-feedback.js';
import type { AgentOptions, SendOptions } from './agent-options.js';
import type { AgentRuntime } from './agent-runtime.js';
import { createAutoReviewer } from './auto-review.js';
import { autoReviewSettings } from './auto-review-options.js';
import { compactionSettings } from './compaction.js';
import type { ConversationCheckpointer } from './conversation-checkpoint.js';
import { recordRunFileChange } from './file-changes.js';
import { withIndexEmbeddings } from './index-embeddings.js';
import { resolveModelSelection } from './model-selection.js';
import { createPermissionChecker, type PermissionCheckerExtras } from './permission-checker.js';
import type { AgentApprovalSettings } from './run-approval-settings.js';
import type { RunEventLog } from './run-event-log.js';
import type { RunToolList } from './run-mcp-tools.js';
import type { RunPlan } from './run-plan.js';
import { runMessage } from './run-start-events.js';
import type { Run } from './run.js';
import { sandboxRequirement } from './sandbox-requirement.js';
import type { SendSettings } from './settings-for-send.js';
import { defaultTurnOutputTokens } from './turn-output-cap.js';

/** What an agent hands over to build a run's plan. */
export interface RunPlanAgent {
  agentId: string;
  cwd: string;
  options: AgentOptions;
  runtime: AgentRuntime;
  store: AgentStore;
  resolved: ResolvedModel;
  approvals: AgentApprovalSettings;
  /** The agent's edit-feedback sessions (diagnostics after edits). */
  editFeedback?: AgentEditFeedback;
  onModeChanged(mode: string): void;
  /** Every update of the run, before the caller's onDelta (the run's usage total). */
  onTurnUpdate(run: Run, update: InteractionUpdate): Promise<void>;
}

/** A run's record as it changes (file changes are recorded one at a time) while the run executes. */
export interface RunBook {
  record: RunRecord;
  fileChanges: Promise<void>;
}

export interface RunPlanInput {
  run: Run;
  book: RunBook;
  log: RunEventLog;
  controller: AbortController;
  options: SendOptions;
  settings: SendSettings;
  checkpointer: ConversationCheckpointer;
  /** The run's tools as they are at each step: MCP servers' lists change (run-mcp-tools.ts). */
  tools: RunToolList;
  state: Record<string, unknown>;
  mode: string;
  messages: ModelMessage[];
  resume?: RunResumePoint;
}

/** Everything one run needs, from the agent's options, the send's options and the settings files. */
export function buildRunPlan(agent: RunPlanAgent, input: RunPlanInput): RunPlan {
  const { run, book, options, settings } = input;
  const { approvals } = agent;
  const permissions = createPermissionChecker(agent.options, agent.cwd, settings.config.permissionLayers, { deferAsk: approvals.askTools, ...autoReviewExtras(agent, run, input.log, input.mode) });
  const compaction = compactionSettings(agent.options.compaction, agent.resolved.catalog);
  return {
    runId: run.id,
    agentId: agent.agentId,
    cwd: agent.cwd,
    messages: input.messages,
    state: input.state,
    mode: input.mode,
    resolveMode: (id) => agent.runtime.registry.mode(id),
    model: agent.resolved,
    maxSteps: options.maxSteps ?? agent.options.maxSteps ?? 50,
    // Read at every step (RunScope caches by the list's identity), so list_changed shows at the next one.
    get tools() {
      return input.tools();
    },
    ...(agent.options.tools ? { allow: agent.options.tools } : {}),
    ...(agent.options.disallowedTools ? { deny: agent.options.disallowedTools } : {}),
    checkPermission: (tool, toolInput, paths, currentMode) => permissions.check(tool, toolInput, paths, currentMode, input.controller.signal),
    isPathDenied: (path, toolId) => permissions.isPathDenied(path, toolId),
    readDeniedFiles: () => permissions.readDeniedFiles(),
    sandboxFor: (definition) => sandboxRequirement(definition, agent.options.local?.sandboxOptions),
    store: agent.store,
    checkpointer: input.checkpointer,
    log: input.log,
    systemPrompt: settings.systemPrompt,
    rules: settings.config.rules,
    ...(compaction ? { compaction } : {}),
    turnOutputTokens: compaction?.turnOutputTokens ?? defaultTurnOutputTokens,
    ...(agent.options.hooks ? { hooks: agent.options.hooks } : {}),
    approvals,
    ...(agent.editFeedback?.active ? { editFeedback: agent.editFeedback } : {}),
    canApproveModeSwitch: approvals.askModeSwitches,
    ...(input.resume ? { resume: input.resume } : {}),
    ...(agent.options.stableToolList ? { stableToolList: true } : {}),
    onModeChanged: agent.onModeChanged,
    promptCacheKey: `cairn-${agent.agentId}`,
    ...(agent.resolved.callParams ? { callParams: agent.resolved.callParams } : {}),
    ...(agent.options.retry ? { retry: agent.options.retry } : {}),
    env: agent.options.env ?? process.env,
    // The explicit bypass reaches the tools too: they re-check protected paths at write time.
    toolSettings: withIndexEmbeddings(
      { ...(agent.options.toolSettings ?? {}), ...(agent.options.allowProtectedPathWrites ? { allowProtectedPathWrites: true } : {}) },
      settings.config, agent.runtime.registry, agent.options,
    ),
    signal: input.controller.signal,
    ...(options.onDelta ? { watchesUpdates: true } : {}),
    onDelta: async (event) => {
      await agent.onTurnUpdate(run, event.update);
      await options.onDelta?.(event);
    },
    ...(options.onStep ? { onStep: options.onStep } : {}),
    // Parallel tools record changes one at a time: each read-modify-write of fileChanges sees the last.
    onFileChange: (change, toolCallId) => {
      const recorded = book.fileChanges.then(async () => {
        book.record = await recordRunFileChange({ store: agent.store, plugins: agent.runtime.registry.plugins, cwd: agent.cwd, agentId: agent.agentId }, book.record, change, toolCallId);
      });
      book.fileChanges = recorded.catch(() => undefined);
      return recorded;
    },
  };
}

/** `local.autoReview`: a model that judges shell, MCP and fetch calls the rules leave open. */
function autoReviewExtras(agent: RunPlanAgent, run: Run, log: RunEventLog, mode: string): PermissionCheckerExtras {
  const review = autoReviewSettings(agent.options.local?.autoReview, 'send');
  if (!review) return {};
  const model = review.model ? resolveModelSelection(agent.runtime.registry, review.model, agent.options) : agent.resolved;
  const reviewer = createAutoReviewer({
    model: model.model,
    timeoutMs: review.timeoutMs,
    ...(model.callParams ? { callParams: model.callParams } : {}),
    ...(agent.options.retry ? { retry: agent.options.retry } : {}),
  });
  const notice = runMessage(agent.agentId, run.id);
  return {
    reviewer,
    intent: run.currentRecord().prompt,
    onReviewUnavailable: (text) => log.append([notice({ type: 'status', status: 'RUNNING', mode, message: text })]),
  };
}
