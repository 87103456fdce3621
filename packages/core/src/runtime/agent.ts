import type { ResolvedModel } from '../registry/registry.js';
import { ConfigurationError } from '../spec/errors/index.js';
import type { AgentUsage, InteractionUpdate, RunEvent } from '../spec/events/v1/index.js';
import type { ModeDefinition } from '../spec/mode/v1/index.js';
import type { ModelSelection } from '../spec/provider/v1/index.js';
import type { AgentRecord, AgentStore, RunRecord } from '../spec/store/v1/index.js';
import type { AgentOptions, SendOptions } from './agent-options.js';
import { type AgentRuntime, newId } from './agent-runtime.js';
import { ConversationCheckpointer, loadConversation } from './conversation-checkpoint.js';
import { repairConversation } from './conversation-repair.js';
import { agentUsage, usageOfRun } from './cost.js';
import { fallbackAgentMode } from './default-modes.js';
import { normalizeModelSelection, resolveModelSelection, selectionOf } from './model-selection.js';
import { Run, type RunResult } from './run.js';
import { RunEventLog } from './run-event-log.js';
import { executeRun, type RunOutcome } from './run-executor.js';
import { rewindAgent, type RewindReport } from './rewind.js';
import { customToolsToDefinitions, offeredTools } from './tool-set.js';
import { validateCustomTools } from './custom-tools.js';
import { normalizeUserMessage } from './user-message-input.js';
import { buildUserMessage, type UserMessage } from './user-message.js';
import { createPermissionChecker } from './permission-checker.js';
import { compactionBudget, defaultKeepRecentTurns } from './compaction.js';
import { modeAtSend } from './mode-at-send.js';
import { loadSendSettings, queryRuleReminders } from './settings-for-send.js';
import { assertMode, assertSupportedOptions, checkAgentOptions, freshAgentId } from './agent-option-checks.js';
import { closeRun, recoverInterruptedRuns } from './recovery.js';
import { agentTurnQueue, type AgentTurnQueue } from './agent-turn-queue.js';
import { runMessage, runStartEvents } from './run-start-events.js';
import { sandboxRequirement } from './sandbox-requirement.js';
import { sdkStatusOf } from './status-message.js';
import { addUsage, emptyUsage } from './token-usage.js';
import { recordRunFileChange } from './file-changes.js';
import { listAgentArtifacts, readAgentArtifact, type SDKArtifact } from './agent-artifacts.js';

/** An agent bound to a workspace and a stored conversation. Runs one send at a time. */
export class CairnAgent {
  private selection: ModelSelection;
  /** What `agent.model` shows: undefined on a resume that named no model, until a send overrides it. */
  private shownSelection: ModelSelection | undefined;
  private resolved: ResolvedModel;
  /** The last send of this handle: close() waits for it. */
  private lastSend: Promise<unknown> = Promise.resolve();
  private closed = false;
  private currentMode: string;
  private readonly turns: AgentTurnQueue;

  private constructor(
    private readonly runtime: AgentRuntime,
    private record: AgentRecord,
    private readonly options: AgentOptions,
    private readonly store: AgentStore,
    showModel = true,
  ) {
    this.selection = record.model;
    this.shownSelection = showModel ? record.model : undefined;
    this.currentMode = record.mode;
    this.resolved = resolveModelSelection(runtime.registry, this.selection, options);
    this.turns = agentTurnQueue(runtime, store, record.agentId);
  }

  /** @internal Use Agent.create. */
  static async create(runtime: AgentRuntime, options: AgentOptions): Promise<CairnAgent> {
    assertSupportedOptions(options, 'Agent.create');
    const cwd = options.local?.cwd;
    if (!cwd) throw new ConfigurationError('Agent.create needs local.cwd: the workspace folder the agent works in.');
    const { canonicalWorkspaceRoot } = await import('../node/workspace-path.js');
    const root = await canonicalWorkspaceRoot(cwd).catch(() => {
      throw new ConfigurationError(`The workspace folder ${cwd} does not exist. Create it or pass another local.cwd.`);
    });
    const store = options.local?.store ?? runtime.store();
    const model = normalizeModelSelection(options.model ?? options.env?.CAIRN_MODEL ?? process.env.CAIRN_MODEL);
    const mode = options.mode ?? 'agent';
    assertMode(runtime, mode);
    await checkAgentOptions(runtime, options, 'Agent.create', root);
    const agentId = options.agentId === undefined ? newId('agent') : await freshAgentId(store, options.agentId);
    const now = Date.now();
    const record: AgentRecord = {
      agentId,
      cwd: root,
      model,
      mode,
      ...(options.name ? { name: options.name } : {}),
      createdAt: now,
      updatedAt: now,
      archived: false,
      checkpointRoot: null,
      lease: null,
    };
    const agent = new CairnAgent(runtime, record, { ...options, local: { ...options.local, cwd: root } }, store);
    await store.agents.put(record);
    return agent;
  }

  /** @internal Use Agent.resume. */
  static async load(runtime: AgentRuntime, agentId: string, options: Partial<AgentOptions>): Promise<CairnAgent> {
    assertSupportedOptions(options, 'Agent.resume');
    const store = options.local?.store ?? runtime.store();
    const record = await store.agents.get(agentId);
    if (!record) throw new ConfigurationError(`No agent ${agentId} in the store. List agents with Agent.list() (or \`cairn agents\`).`);
    const model = options.model ? normalizeModelSelection(options.model) : record.model;
    const merged: AgentOptions = { ...options, model, local: { ...options.local, cwd: options.local?.cwd ?? record.cwd } };
    await checkAgentOptions(runtime, merged, 'Agent.resume', merged.local?.cwd ?? record.cwd);
    const agent = new CairnAgent(runtime, { ...record, model }, merged, store, options.model !== undefined);
    await recoverInterruptedRuns(store, record, runtime.owner);
    agent.record = (await store.agents.get(agentId)) ?? record;
    return agent;
  }

  get agentId(): string {
    return this.record.agentId;
  }

  /**
   * The agent's model selection, as given to create() or the last send() that overrode it (sticky).
   * Undefined after a resume that named no model: the stored selection still drives the runs.
   */
  get model(): ModelSelection | undefined {
    return this.shownSelection;
  }

  get cwd(): string {
    return this.record.cwd;
  }

  get mode(): string {
    return this.currentMode;
  }

  async send(message: string | UserMessage, options: SendOptions = {}): Promise<Run> {
    if (this.closed) throw new ConfigurationError('This agent was closed. Resume it with Agent.resume(agentId) to send again.');
    assertSupportedOptions(options, 'send');
    if (options.model) {
      const selection = normalizeModelSelection(options.model);
      this.resolved = resolveModelSelection(this.runtime.registry, selection, this.options);
      this.selection = selection;
      this.shownSelection = selection;
    }
    const runMode = options.mode ?? this.currentMode;
    assertMode(this.runtime, runMode);
    // Tools that replace the agent's for this run are checked now: a bad one is an error of send(), not a failed run.
    if (options.local?.customTools !== undefined) validateCustomTools(options.local.customTools, this.runtime.registry.tools());
    const userMessage = normalizeUserMessage(message);
    if (!userMessage.text?.trim() && !userMessage.images?.length) throw new ConfigurationError('send() needs a non-empty message.');
    const runId = newId('run');
    const runSelection = this.runSelection();
    await this.turns.admit(runId, options.local?.force === true, this.record);
    const now = Date.now();
    const record: RunRecord = {
      runId,
      agentId: this.agentId,
      requestId: globalThis.crypto.randomUUID(),
      status: 'running',
      mode: runMode,
      model: this.resolved.id,
      ...(runSelection.params ? { modelParams: runSelection.params } : {}),
      prompt: userMessage.text,
      createdAt: now,
      updatedAt: now,
      checkpointBefore: this.record.checkpointRoot,
      owner: this.runtime.owner,
    };
    await this.store.runs.create(record);
    const log = new RunEventLog(this.store.runEvents, runId);
    const controller = new AbortController();
    if (options.signal) {
      if (options.signal.aborted) controller.abort();
      else options.signal.addEventListener('abort', () => controller.abort(), { once: true });
    }
    let resolveDone!: (result: RunResult) => void;
    const done = new Promise<RunResult>((resolve) => (resolveDone = resolve));
    const run = new Run(this.store, record, { log, cancel: () => controller.abort(), done });
    this.lastSend = this.turns
      .enqueue(runId, controller, () => this.execute(run, record, log, controller, userMessage, runMode, options).catch((error: unknown) => this.failedResult(run, error)))
      .then(resolveDone);
    return run;
  }

  /**
   * Approve the plan proposed in plan mode and run it: the plan's steps become the todo list and the
   * run (and later sends) use the approval target mode, agent for the built-in plan mode.
   */
  async approvePlan(message = 'The plan is approved. Implement it now.', options: SendOptions = {}): Promise<Run> {
    return this.send(message, { ...options, approvePlan: true });
  }

  private async execute(run: Run, initial: RunRecord, log: RunEventLog, controller: AbortController, userMessage: UserMessage, requestedRunMode: string, options: SendOptions): Promise<RunResult> {
    let runMode = requestedRunMode;
    const started = Date.now();
    let fileChangeQueue: Promise<void> = Promise.resolve();
    let record: RunRecord = { ...initial, checkpointBefore: (await this.store.agents.get(this.agentId))?.checkpointRoot ?? this.record.checkpointRoot };
    const append = (events: RunEvent[]) => log.append(events);
    const message = runMessage(this.agentId, run.id);
    const stopHeartbeat = await this.turns.lease.keepAlive(run.id, controller);
    try {
      const latest = await this.store.agents.get(this.agentId);
      if (latest) this.record = latest;
      const snapshot = await loadConversation(this.store.checkpoints, this.record.checkpointRoot);
      const history = repairConversation(snapshot.messages).messages;
      const state: Record<string, unknown> = { ...snapshot.state };
      const conversationMode = history.length === 0 ? this.currentMode : snapshot.mode;
      const decided = modeAtSend({ approvePlan: options.approvePlan, requestedMode: options.mode, conversationMode, runMode, state, resolveMode: (id) => this.runtime.registry.mode(id) ?? (id === 'agent' ? fallbackAgentMode : undefined) });
      if (decided.mode !== runMode) {
        runMode = decided.mode;
        assertMode(this.runtime, runMode);
      }
      // The user chose the mode of this run: a switch the model asked for earlier is moot.
      if (runMode !== conversationMode) delete state.pendingModeSwitch;
      if (decided.approval) this.currentMode = runMode;
      const mode = this.modeDefinition(runMode);
      const tools = [...this.runtime.registry.tools(), ...customToolsToDefinitions(options.local?.customTools ?? this.options.local?.customTools)];
      // Every checkpoint (each step, and before tools run) moves the agent row, so a killed process
      // leaves the conversation of its last complete step for the next one.
      const checkpointer = new ConversationCheckpointer(this.store.checkpoints, { root: this.record.checkpointRoot, messages: history }, {
        onSave: async (root) => (this.record = await this.store.agents.update(this.agentId, { checkpointRoot: root, updatedAt: Date.now() })),
      });
      // A broken settings file ends this run with a clear error (and a closed run record), not a throw.
      const settingsResult = await loadSendSettings(this.options, this.record.cwd, this.runtime.registry.modes()).then(
        (value) => ({ value }),
        (error: unknown) => ({ error: error as Error & { code?: string } }),
      );
      const settings = 'value' in settingsResult ? settingsResult.value : { config: { sources: { project: false, user: false, projectTrusted: false, userTrusted: false }, rules: [], permissionLayers: [] }, systemPrompt: '' };
      const user = await buildUserMessage({
        message: userMessage,
        cwd: this.record.cwd,
        firstInConversation: history.length === 0,
        mode,
        modeChanged: history.length === 0 ? mode.id !== 'agent' || mode.promptBlocks.length > 0 : snapshot.mode !== mode.id,
        reminders: [...(decided.approval ? [decided.approval.reminder] : []), ...queryRuleReminders(settings.config, userMessage.text, state)],
      });
      const modeChange = decided.approval
        ? { from: conversationMode, source: 'plan-approval' as const }
        : history.length > 0 && snapshot.mode !== mode.id
          ? { from: snapshot.mode, source: 'user' as const }
          : undefined;
      const startEvents = runStartEvents({
        message, model: this.runSelection(), toolNames: offeredTools(tools, {
          ...(this.options.tools ? { allow: this.options.tools } : {}),
          ...(this.options.disallowedTools ? { deny: this.options.disallowedTools } : {}),
          mode, cwd: this.record.cwd, settings: this.options.toolSettings ?? {}, stableToolList: this.options.stableToolList === true,
        }).map((tool) => tool.name), mode: mode.id, cwd: this.record.cwd, userText: userMessage.text,
        ...(modeChange ? { modeChange } : {}),
        ...(decided.approval ? { approvalUpdate: decided.approval.update } : {}),
        ...(this.options.local?.autoReview ? { notices: [autoReviewFallbackNotice] } : {}),
      });
      await append(startEvents);
      // The opening updates (user-message-appended, a mode change) reach onDelta like every later one.
      for (const event of startEvents) if (event.kind === 'update') await options.onDelta?.({ update: event.update });
      const permissions = createPermissionChecker(this.options, this.record.cwd, settings.config.permissionLayers);
      const budget = compactionBudget(this.options.compaction, this.resolved.catalog);
      const outcome: RunOutcome = 'error' in settingsResult
        ? { status: 'error', result: '', messages: history, mode: mode.id, error: { message: settingsResult.error.message, code: settingsResult.error.code ?? 'configuration_error' } }
        : controller.signal.aborted
        ? { status: 'cancelled', result: '', messages: [...history, user], mode: mode.id, error: { message: 'The run was cancelled.', code: 'cancelled' } }
        : await executeRun({
            runId: run.id,
            agentId: this.agentId,
            cwd: this.record.cwd,
            messages: [...history, user],
            state,
            mode: mode.id,
            resolveMode: (id) => this.runtime.registry.mode(id) ?? (id === 'agent' ? fallbackAgentMode : undefined),
            model: this.resolved,
            maxSteps: options.maxSteps ?? this.options.maxSteps ?? 50,
            tools,
            ...(this.options.tools ? { allow: this.options.tools } : {}),
            ...(this.options.disallowedTools ? { deny: this.options.disallowedTools } : {}),
            checkPermission: (tool, input, paths, currentMode) => permissions.check(tool, input, paths, currentMode),
            isPathDenied: (path, toolId) => permissions.isPathDenied(path, toolId),
            readDeniedFiles: () => permissions.readDeniedFiles(),
            sandboxFor: (definition) => sandboxRequirement(definition, this.options.local?.sandboxOptions),
            store: this.store,
            checkpointer,
            log,
            systemPrompt: settings.systemPrompt,
            rules: settings.config.rules,
            ...(budget ? { compaction: { budget, keepRecentTurns: this.options.compaction?.keepRecentTurns ?? defaultKeepRecentTurns } } : {}),
            ...(this.options.hooks ? { hooks: this.options.hooks } : {}),
            ...(this.options.approveModeSwitch ? { approveModeSwitch: this.options.approveModeSwitch } : {}),
            ...(this.options.stableToolList ? { stableToolList: true } : {}),
            onModeChange: async (next) => {
              this.currentMode = next;
              this.record = await this.store.agents.update(this.agentId, { mode: next, updatedAt: Date.now() });
            },
            promptCacheKey: `cairn-${this.agentId}`,
            ...(this.selectionParams() ? { callParams: this.selectionParams() } : {}),
            ...(this.options.retry ? { retry: this.options.retry } : {}),
            env: this.options.env ?? process.env,
            // The explicit bypass reaches the tools too: they re-check protected paths at write time.
            toolSettings: { ...(this.options.toolSettings ?? {}), ...(this.options.allowProtectedPathWrites ? { allowProtectedPathWrites: true } : {}) },
            signal: controller.signal,
            onDelta: async (event) => {
              await this.recordTurnUsage(run, event.update);
              await options.onDelta?.(event);
            },
            ...(options.onStep ? { onStep: options.onStep } : {}),
            // Parallel tools record changes one at a time: each read-modify-write of fileChanges sees the last.
            onFileChange: (change, toolCallId) => {
              const recorded = fileChangeQueue.then(async () => {
                record = await recordRunFileChange({ store: this.store, plugins: this.runtime.registry.plugins, cwd: this.record.cwd, agentId: this.agentId }, record, change, toolCallId);
              });
              fileChangeQueue = recorded.catch(() => undefined);
              return recorded;
            },
          });
      const root = await checkpointer.save(outcome.messages, state, outcome.mode);
      if (outcome.mode !== runMode) this.currentMode = outcome.mode;
      this.record = await this.store.agents.update(this.agentId, { checkpointRoot: root, mode: this.currentMode, model: this.selection, updatedAt: Date.now() });
      // The final status event goes first: a reader that sees the record ended then finds it in the log.
      await append([message({ type: 'status', status: sdkStatusOf(outcome.status), ...(outcome.error ? { error: outcome.error, message: outcome.error.message } : {}) })]);
      const finishedAt = Date.now();
      record = await this.store.runs.update(run.id, {
        status: outcome.status,
        result: outcome.result,
        ...(outcome.error ? { error: outcome.error } : {}),
        ...(outcome.usage ? { usage: outcome.usage } : {}),
        finishedAt,
        updatedAt: finishedAt,
        durationMs: finishedAt - started,
        checkpointAfter: root,
        mode: outcome.mode,
        ...(record.fileChanges ? { fileChanges: record.fileChanges } : {}),
      });
      run.updateRecord(record);
      log.wakeAll();
      return run.toResult();
    } finally {
      stopHeartbeat();
    }
  }

  /**
   * `run.usage` is the running total while the run is in flight: each turn that reported usage adds
   * to the run's record (in the store too, so Agent.getRun readers see it).
   */
  private async recordTurnUsage(run: Run, update: InteractionUpdate): Promise<void> {
    if (update.type !== 'turn-ended' || !update.usage) return;
    const turn = { ...update.usage, totalTokens: update.usage.totalTokens ?? update.usage.inputTokens + update.usage.outputTokens };
    const usage = addUsage(run.usage ?? emptyUsage(), turn);
    run.updateRecord(await this.store.runs.update(run.id, { usage, updatedAt: Date.now() }));
  }

  /** The run threw (a store or checkpoint failure): end it in the store too, so streams and other processes see it end. */
  private async failedResult(run: Run, error: unknown): Promise<RunResult> {
    const message = error instanceof Error ? error.message : String(error);
    const failure = { message, code: (error as { code?: string })?.code ?? 'run_failed' };
    const closed = await closeRun(this.store, run.currentRecord(), 'error', failure).catch(() => undefined);
    run.updateRecord(closed ?? { ...run.currentRecord(), status: 'error', error: failure });
    return { ...run.toResult(), status: 'error', error: failure };
  }

  private modeDefinition(id: string): ModeDefinition {
    return this.runtime.registry.mode(id) ?? (id === 'agent' ? fallbackAgentMode : assertMode(this.runtime, id));
  }

  /** The model a run uses as run.model shows it: the concrete id with the selection's params. */
  private runSelection(): ModelSelection {
    return selectionOf(this.resolved, this.selection);
  }

  /** The selection's params as the model takes them: checked and typed by the catalog when the model was resolved. */
  private selectionParams(): Record<string, string | number | boolean> | undefined {
    return this.resolved.callParams;
  }

  /** Tokens and cost of this agent's runs, one entry per run; `runId` restricts the result to that run. */
  async getUsage(options: { runId?: string } = {}): Promise<AgentUsage> {
    const usage = await agentUsage(this.store, this.runtime.registry, this.agentId);
    return options.runId === undefined ? usage : usageOfRun(usage, this.agentId, options.runId);
  }

  /** The files the agent wrote and did not delete, least recently written first. */
  listArtifacts(): Promise<SDKArtifact[]> {
    return listAgentArtifacts(this.store, this.agentId);
  }

  /** The content the agent last wrote to `path` (a path from listArtifacts). */
  downloadArtifact(path: string): Promise<Buffer> {
    return readAgentArtifact(this.store, { agentId: this.agentId, cwd: this.record.cwd }, path);
  }

  /** A new agent that starts from this agent's conversation (same checkpoint root, shared blobs). */
  async fork(options: { name?: string } = {}): Promise<CairnAgent> {
    await this.lastSend.catch(() => undefined);
    const now = Date.now();
    const record: AgentRecord = { ...this.record, agentId: newId('agent'), createdAt: now, updatedAt: now, lease: null, ...(options.name ? { name: options.name } : {}) };
    await this.store.agents.put(record);
    return new CairnAgent(this.runtime, record, this.options, this.store);
  }

  /** Restore files and conversation to before `toRunId`; files changed outside the agent are reported, not overwritten. */
  async rewind(toRunId: string): Promise<RewindReport> {
    await this.lastSend.catch(() => undefined);
    const report = await rewindAgent(this.store, this.record, toRunId);
    this.record = (await this.store.agents.get(this.agentId)) ?? this.record;
    return report;
  }

  /**
   * Re-read the agent record. Rules, AGENTS.md and permissions.json are read from disk at every
   * send, so edits to them take effect at the next send with or without this call.
   */
  async reload(): Promise<void> {
    const latest = await this.store.agents.get(this.agentId);
    if (latest) this.record = latest;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.lastSend.catch(() => undefined);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}

/**
 * local.autoReview asks for a classifier that reviews shell, MCP and fetch calls. The reference SDK
 * falls back to the default behaviour where no classifier is available, as here; the run says so.
 */
const autoReviewFallbackNotice = 'local.autoReview: no auto-review classifier is available, so tool calls follow the permission rules and defaultPermission as usual.';
