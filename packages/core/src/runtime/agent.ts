import type { ResolvedModel } from '../registry/registry.js';
import { ConfigurationError } from '../spec/errors/index.js';
import type { AgentUsage } from '../spec/events/v1/index.js';
import type { ModeDefinition } from '../spec/mode/v1/index.js';
import type { ModelSelection } from '../spec/provider/v1/index.js';
import type { AgentRecord, AgentStore, ApprovalRecord, RunRecord } from '../spec/store/v1/index.js';
import type { AgentOptions, SendOptions } from './agent-options.js';
import { type AgentRuntime, newId } from './agent-runtime.js';
import { ConversationCheckpointer, loadConversation } from './conversation-checkpoint.js';
import { checkpointWrites } from './checkpoint-writes.js';
import { repairConversation } from './conversation-repair.js';
import { agentUsage, usageOfRun } from './cost.js';
import { normalizeModelSelection, resolveModelSelection, selectionOf } from './model-selection.js';
import { Run, type RunResult } from './run.js';
import { RunEventLog } from './run-event-log.js';
import { executeRun, type RunOutcome } from './run-executor.js';
import { rewindAgent, type RewindReport } from './rewind.js';
import { customToolsToDefinitions, offeredTools } from './tool-set.js';
import { AgentMcp, assertMcpServers } from './agent-mcp.js';
import { RunWarnings } from './run-warnings.js';
import { AgentHookSession, hookRunOutcome } from './agent-hooks.js';
import { AgentEditFeedback } from './agent-edit-feedback.js';
import type { AgentHooks } from './agent-options.js';
import { validateCustomTools } from './custom-tools.js';
import { normalizeUserMessage } from './user-message-input.js';
import { buildUserMessage, type UserMessage } from './user-message.js';
import { assertCompactionPolicy, } from './compaction.js';
import { modeAtSend } from './mode-at-send.js';
import { loadSendSettingsOrError, queryRuleReminders } from './settings-for-send.js';
import { buildRunPlan, type RunBook, type RunPlanAgent } from './agent-run-plan.js';
import { finishRun } from './run-finish.js';
import type { ModelMessage } from '../spec/language-model/v1/index.js';
import { assertMode, assertSupportedOptions, checkAgentOptions, freshAgentId } from './agent-option-checks.js';
import { closeRun, recoverInterruptedRuns } from './recovery.js';
import { failedRunResult, recordTurnUsage } from './run-record-updates.js';
import { agentRuntimeFor } from './agent-registry.js';
import { resolveAgentStore } from './agent-store-choice.js';
import { type AgentApprovalSettings, approvalSettingsFor } from './run-approval-settings.js';
import { resumePointOf, waitingMarker } from './run-resume.js';
import { agentTurnQueue, type AgentTurnQueue } from './agent-turn-queue.js';
import { runMessage, runStartEvents } from './run-start-events.js';
import { listAgentArtifacts, readAgentArtifact, type SDKArtifact } from './agent-artifacts.js';
import { AgentSubagents, type SubagentLink } from './agent-subagents.js';
import { type ExecuteQueuedRunOptions, type QueuedRunOutcome, backgroundRunInfo, withBackgroundInfo } from './background-run.js';
import { queueRun } from './background-send.js';
// Static: every create and resume needs it (agent.ts is in @cairn/core/node only, never the browser-safe root).
import { canonicalWorkspaceRoot } from '../node/workspace-path.js';
import { type RunControl, handedBack, queuedRunOutcome, resumedNotice, unfinishedToolEvents } from './queued-run-steps.js';

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

  private readonly runtime: AgentRuntime;
  /** How this agent's runs ask for approval (validated at create/resume). */
  private readonly approvals: AgentApprovalSettings;
  /** The agent's MCP servers, started at the first run that has some; closed by close(). */
  private readonly mcp: AgentMcp;
  /** The agent's hooks (files and typed callbacks), built per run; session-end hooks run at close(). */
  private readonly hooks: AgentHookSession;
  /** Feedback on edits (language-server diagnostics), started in the background here; closed by close(). */
  private readonly editFeedback: AgentEditFeedback;
  /** The `task` tool bound to this agent (or, for a subagent, to its depth and inherited tools). */
  private readonly subagents: AgentSubagents;
  /**
   * The folder this handle works in: the stored agent's, or the `local.cwd` a resume gave (a
   * worker's clone of a git workspace); the stored agent keeps its own.
   */
  private readonly workspace: string;

  private constructor(
    runtime: AgentRuntime,
    private record: AgentRecord,
    private readonly options: AgentOptions,
    private readonly store: AgentStore,
    showModel = true,
    subagent?: SubagentLink,
  ) {
    this.runtime = agentRuntimeFor(runtime, options);
    this.workspace = options.local?.cwd ?? record.cwd;
    this.approvals = approvalSettingsFor(options, store);
    this.selection = record.model;
    this.shownSelection = showModel ? record.model : undefined;
    this.currentMode = record.mode;
    this.resolved = resolveModelSelection(this.runtime.registry, this.selection, options);
    this.turns = agentTurnQueue(this.runtime, store, record.agentId);
    this.mcp = AgentMcp.for(this.runtime.registry, record.agentId, this.workspace, options);
    this.hooks = new AgentHookSession(record.agentId, this.workspace, options);
    this.editFeedback = AgentEditFeedback.open(this.runtime.registry, { cwd: this.workspace, agentId: record.agentId, options });
    this.subagents = new AgentSubagents({
      agentId: record.agentId, cwd: this.workspace, options, runtime: this.runtime, store, selection: () => this.runSelection(),
      spawn: async (child, childOptions, link) => {
        await store.agents.put(child);
        return new CairnAgent(runtime, child, childOptions, store, true, link);
      },
    }, subagent);
  }

  /** @internal Use Agent.create. */
  static async create(runtime: AgentRuntime, options: AgentOptions): Promise<CairnAgent> {
    assertSupportedOptions(options, 'Agent.create');
    const cwd = options.local?.cwd;
    if (!cwd) throw new ConfigurationError('Agent.create needs local.cwd: the workspace folder the agent works in.');
    const root = await canonicalWorkspaceRoot(cwd).catch(() => {
      throw new ConfigurationError(`The workspace folder ${cwd} does not exist. Create it or pass another local.cwd.`);
    });
    const agentRuntime = agentRuntimeFor(runtime, options);
    const store = resolveAgentStore(runtime, options);
    const model = normalizeModelSelection(options.model ?? options.env?.CAIRN_MODEL ?? process.env.CAIRN_MODEL);
    const mode = options.mode ?? 'agent';
    assertMode(agentRuntime, mode);
    assertCompactionPolicy(options.compaction);
    await checkAgentOptions(agentRuntime, options, 'Agent.create', root);
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
    const store = resolveAgentStore(runtime, options);
    const record = await store.agents.get(agentId);
    if (!record) throw new ConfigurationError(`No agent ${agentId} in the store. List agents with Agent.list() (or \`cairn agents\`).`);
    const model = options.model ? normalizeModelSelection(options.model) : record.model;
    const cwd = options.local?.cwd === undefined ? record.cwd : await resumedWorkspace(options.local.cwd);
    const given: AgentOptions = { ...options, model, local: { ...options.local, cwd } };
    await checkAgentOptions(agentRuntimeFor(runtime, given), given, 'Agent.resume', cwd);
    const subagent = record.parentAgentId ? (await import('../subagents/resumed-subagent.js')).resumedSubagent(record, given) : undefined;
    const merged = subagent?.options ?? given;
    const agent = new CairnAgent(runtime, { ...record, model }, merged, store, options.model !== undefined, subagent?.link);
    const waiting: RunRecord[] = [];
    await recoverInterruptedRuns(store, record, runtime.owner, undefined, undefined, (run) => {
      if (!waitingMarker(run) || !store.approvals) return false;
      waiting.push(run);
      return true;
    });
    agent.record = (await store.agents.get(agentId)) ?? record;
    for (const run of waiting) await agent.continueWaitingRun(run);
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
    return this.workspace;
  }

  get mode(): string {
    return this.currentMode;
  }

  async send(message: string | UserMessage, options: SendOptions = {}): Promise<Run> {
    if (this.closed) throw new ConfigurationError('This agent was closed. Resume it with Agent.resume(agentId) to send again.');
    assertSupportedOptions(options, 'send');
    assertMcpServers(this.runtime.registry, options.mcpServers, 'send');
    if (options.model) this.useModel(options.model);
    const runMode = options.mode ?? this.currentMode;
    assertMode(this.runtime, runMode);
    // Tools that replace the agent's for this run are checked now: a bad one is an error of send(), not a failed run.
    if (options.local?.customTools !== undefined) validateCustomTools(options.local.customTools, this.runtime.registry.tools());
    const userMessage = normalizeUserMessage(message);
    if (!userMessage.text?.trim() && !userMessage.images?.length) throw new ConfigurationError('send() needs a non-empty message.');
    const runId = newId('run');
    const runSelection = this.runSelection();
    if (this.options.background) {
      return queueRun({
        store: this.store, dispatcher: this.options.background, runId, agentId: this.agentId, checkpointRoot: this.record.checkpointRoot,
        model: { id: this.resolved.id, selection: runSelection, ...(options.model ? { override: this.selection } : {}) }, runMode, message: userMessage, options,
      });
    }
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
      .enqueue(runId, controller, () => this.execute(run, record, log, controller, userMessage, runMode, options).catch((error: unknown) => failedRunResult(this.store, run, error)))
      .then(resolveDone);
    return run;
  }

  /**
   * The worker side of a background run (docs/background-agents.md): take the agent's lease, then
   * run the queued send, continue a run a stopped worker left from its last complete step, or end
   * a run whose cancel nobody could act on. The outcome tells the worker what to do with its job.
   */
  async executeQueuedRun(runId: string, options: ExecuteQueuedRunOptions = {}): Promise<QueuedRunOutcome> {
    const queued = await this.store.runs.get(runId);
    if (!queued || queued.agentId !== this.agentId) throw new ConfigurationError(`Agent ${this.agentId} has no run ${runId} in the store.`);
    if (queued.status !== 'running') return { kind: 'already-ended', status: queued.status };
    if (!backgroundRunInfo(queued)) throw new ConfigurationError(`Run ${runId} was not queued: it runs in the process it was sent from.`);
    // A worker of another machine may have the folder: throwing lets the queue try elsewhere.
    if (!(await isDirectory(this.workspace))) {
      throw new ConfigurationError(`The folder of agent ${this.agentId}, ${this.workspace}, does not exist on this machine: run its worker where the folder is (or on a filesystem that has it), or send the run with a git workspace.`);
    }
    const controller = new AbortController();
    const handBack = options.handBack;
    if (handBack?.aborted) return { kind: 'handed-back' };
    handBack?.addEventListener('abort', () => controller.abort(), { once: true });
    await this.turns.admit(runId, false, this.record);
    return queuedRunOutcome(this.turns.enqueue(runId, controller, () => this.runQueued(runId, controller, options)));
  }

  private async runQueued(runId: string, controller: AbortController, options: ExecuteQueuedRunOptions): Promise<QueuedRunOutcome> {
    const current = await this.store.runs.get(runId);
    const info = current && backgroundRunInfo(current);
    if (!current || !info || current.status !== 'running') return { kind: 'already-ended', status: current?.status === 'running' || !current ? 'error' : current.status };
    this.record = (await this.store.agents.get(this.agentId)) ?? this.record;
    const log = new RunEventLog(this.store.runEvents, runId);
    if (current.metadata?.cancelRequested === true) {
      const ended = await closeRun(this.store, current, 'cancelled', { message: 'The run was cancelled before it started.', code: 'cancelled' });
      return { kind: 'ended', result: new Run(this.store, ended).toResult() };
    }
    const logged = (await this.store.runEvents.list(runId, { limit: 1 })).events.length > 0;
    const now = Date.now();
    const attempts = (info.attempts ?? 0) + 1;
    const started = await this.store.runs.update(runId, {
      owner: this.runtime.owner, updatedAt: now, ...(logged ? {} : { checkpointBefore: this.record.checkpointRoot }),
      metadata: withBackgroundInfo(current.metadata, { ...info, startedAt: info.startedAt ?? now, attempts }),
    });
    if (info.send.model) this.useModel(info.send.model);
    let resolveDone!: (result: RunResult) => void;
    const done = new Promise<RunResult>((resolve) => (resolveDone = resolve));
    const run = new Run(this.store, started, { log, cancel: () => controller.abort(), done });
    const control: RunControl = { ...(options.handBack ? { handBack: options.handBack } : {}), ...(options.finalize ? { finalize: options.finalize } : {}) };
    const send = { ...(info.send.mode ? { mode: info.send.mode } : {}), ...(info.send.approvePlan !== undefined ? { approvePlan: info.send.approvePlan } : {}), ...(info.send.maxSteps !== undefined ? { maxSteps: info.send.maxSteps } : {}) };
    const message = { text: info.send.text, ...(info.send.images ? { images: info.send.images } : {}) };
    try {
      if (logged) await log.append([resumedNotice(this.agentId, runId, attempts)]);
      const result = waitingMarker(started)
        ? await this.executeResumed(run, started, log, controller, control)
        : logged && this.record.checkpointRoot !== started.checkpointBefore
          ? await this.executeInterrupted(run, started, log, controller, control)
          : await this.execute(run, started, log, controller, message, info.send.mode ?? started.mode, send, { ...control, openingLogged: logged });
      return { kind: 'ended', result };
    } catch (error) {
      if (error === handedBack) return { kind: 'handed-back' };
      // Thrown (a store that went away): the queue retries, and the next worker resumes the run.
      throw error;
    } finally {
      // This process is done with the run whatever happened: its live entry must not wait forever.
      resolveDone(run.toResult());
    }
  }

  /**
   * Continue a background run whose worker stopped after a complete step: the saved conversation
   * (unanswered tool calls get aborted results, in the conversation and in the log) goes on at the next step.
   */
  private async executeInterrupted(run: Run, record: RunRecord, log: RunEventLog, controller: AbortController, control: RunControl): Promise<RunResult> {
    const book: RunBook = { record, fileChanges: Promise.resolve() };
    const warnings = new RunWarnings(runMessage(this.agentId, run.id), 'mcp');
    const stopHeartbeat = await this.turns.lease.keepAlive(run.id, controller);
    try {
      const snapshot = await loadConversation(this.store.checkpoints, this.record.checkpointRoot);
      const messages = repairConversation(snapshot.messages).messages;
      const state: Record<string, unknown> = { ...snapshot.state };
      const { events, step } = await unfinishedToolEvents(this.store.runEvents, run.id, this.agentId);
      await log.append(events);
      const checkpointer = this.checkpointerFor(messages, snapshot.mode);
      const settings = await loadSendSettingsOrError(this.options, this.workspace, this.runtime.registry.modes(), this.runtime.registry.mcp() !== undefined);
      const outcome: RunOutcome = settings.error
        ? { status: 'error', result: '', messages, mode: snapshot.mode, error: { message: settings.error.message, code: settings.error.code ?? 'configuration_error' } }
        : await executeRun(buildRunPlan(this.planSource(), { run, book, log, controller, options: {}, settings: settings.value, checkpointer, tools: await this.runTools({}, warnings.opened(snapshot.mode, log), controller.signal), state, mode: snapshot.mode, messages, resume: { step, ...(record.usage ? { usage: record.usage } : {}) } }));
      return await this.finishRun(run, book, log, outcome, state, checkpointer, record.createdAt, snapshot.mode, control);
    } finally {
      warnings.end();
      stopHeartbeat();
    }
  }

  /**
   * Approve the plan proposed in plan mode and run it: the plan's steps become the todo list and the
   * run (and later sends) use the approval target mode, agent for the built-in plan mode.
   */
  async approvePlan(message = 'The plan is approved. Implement it now.', options: SendOptions = {}): Promise<Run> {
    return this.send(message, { ...options, approvePlan: true });
  }

  private async execute(run: Run, initial: RunRecord, log: RunEventLog, controller: AbortController, userMessage: UserMessage, requestedRunMode: string, options: SendOptions, control: RunControl = {}): Promise<RunResult> {
    let runMode = requestedRunMode;
    const started = Date.now();
    const book: RunBook = { record: { ...initial, checkpointBefore: (await this.store.agents.get(this.agentId))?.checkpointRoot ?? this.record.checkpointRoot }, fileChanges: Promise.resolve() };
    const message = runMessage(this.agentId, run.id);
    const warnings = new RunWarnings(message, 'mcp');
    const hookWarnings = new RunWarnings(message, 'hook');
    const stopHeartbeat = await this.turns.lease.keepAlive(run.id, controller);
    try {
      const latest = await this.store.agents.get(this.agentId);
      if (latest) this.record = latest;
      const snapshot = await loadConversation(this.store.checkpoints, this.record.checkpointRoot);
      const history = repairConversation(snapshot.messages).messages;
      const state: Record<string, unknown> = { ...snapshot.state };
      const conversationMode = history.length === 0 ? this.currentMode : snapshot.mode;
      const decided = modeAtSend({ approvePlan: options.approvePlan, requestedMode: options.mode, conversationMode, runMode, state, resolveMode: (id) => this.runtime.registry.mode(id) });
      if (decided.mode !== runMode) {
        runMode = decided.mode;
        assertMode(this.runtime, runMode);
      }
      // A switch request is answered within its step; one left in an old conversation is moot.
      delete state.pendingModeSwitch;
      if (decided.approval) this.currentMode = runMode;
      const mode = this.modeDefinition(runMode);
      const settings = await loadSendSettingsOrError(this.options, this.workspace, this.runtime.registry.modes(), this.runtime.registry.mcp() !== undefined);
      const tools = await this.runTools(options, settings.error ? undefined : warnings.warn, controller.signal);
      const hooks = settings.error ? { reminders: [] } : await this.hooks.openRun({ runId: run.id, mode: mode.id, warn: hookWarnings.warnText, signal: controller.signal, prompt: userMessage.text, resumed: history.length > 0 });
      const user = await buildUserMessage({
        message: userMessage,
        cwd: this.workspace,
        firstInConversation: history.length === 0,
        mode,
        modeChanged: history.length === 0 ? mode.id !== 'agent' || mode.promptBlocks.length > 0 : snapshot.mode !== mode.id,
        reminders: [...(decided.approval ? [decided.approval.reminder] : []), ...queryRuleReminders(settings.value.config, userMessage.text, state), ...hooks.reminders],
      });
      const modeChange = decided.approval
        ? { from: conversationMode, source: 'plan-approval' as const }
        : history.length > 0 && snapshot.mode !== mode.id
          ? { from: snapshot.mode, source: 'user' as const }
          : undefined;
      const startEvents = runStartEvents({
        message, model: this.runSelection(), toolNames: offeredTools(tools(), {
          ...(this.options.tools ? { allow: this.options.tools } : {}),
          ...(this.options.disallowedTools ? { deny: this.options.disallowedTools } : {}),
          mode, cwd: this.workspace, settings: this.options.toolSettings ?? {}, stableToolList: this.options.stableToolList === true,
        }).map((tool) => tool.name), mode: mode.id, cwd: this.workspace, userText: userMessage.text,
        ...(modeChange ? { modeChange } : {}),
        ...(decided.approval ? { approvalUpdate: decided.approval.update } : {}),
      });
      // A background run a stopped worker began has its opening in the log already.
      const opening = [...(control.openingLogged ? [] : startEvents), ...warnings.open(mode.id, log, options.onDelta), ...hookWarnings.open(mode.id, log, options.onDelta)];
      await log.append(opening);
      // The opening updates (user-message-appended, a mode change, MCP warnings) reach onDelta like every later one.
      for (const event of opening) if (event.kind === 'update') await options.onDelta?.({ update: event.update });
      const checkpointer = this.checkpointerFor(history, mode.id);
      const outcome: RunOutcome = settings.error
        ? { status: 'error', result: '', messages: history, mode: mode.id, error: { message: settings.error.message, code: settings.error.code ?? 'configuration_error' } }
        : (hookRunOutcome(hooks, history, mode.id) ?? (controller.signal.aborted
          ? { status: 'cancelled', result: '', messages: [...history, user], mode: mode.id, error: { message: 'The run was cancelled.', code: 'cancelled' } }
          : await executeRun(buildRunPlan(this.planSource(hooks.hooks), { run, book, log, controller, options, settings: settings.value, checkpointer, tools, state, mode: mode.id, messages: [...history, user] }))));
      return await this.finishRun(run, book, log, outcome, state, checkpointer, started, mode.id, control);
    } finally {
      warnings.end();
      hookWarnings.end();
      stopHeartbeat();
    }
  }

  /**
   * Continue a run that a stopped process left waiting for approval: this process takes the
   * agent's lease and runs it from where it waited (its requests and their answers are in the store).
   */
  private async continueWaitingRun(waiting: RunRecord): Promise<Run> {
    const controller = new AbortController();
    const log = new RunEventLog(this.store.runEvents, waiting.runId);
    await this.turns.admit(waiting.runId, false, this.record);
    const owned = await this.store.runs.update(waiting.runId, { owner: this.runtime.owner, updatedAt: Date.now() });
    let resolveDone!: (result: RunResult) => void;
    const done = new Promise<RunResult>((resolve) => (resolveDone = resolve));
    const run = new Run(this.store, owned, { log, cancel: () => controller.abort(), done });
    this.lastSend = this.turns.enqueue(waiting.runId, controller, () => this.executeResumed(run, owned, log, controller).catch((error: unknown) => failedRunResult(this.store, run, error))).then(resolveDone);
    return run;
  }

  private async executeResumed(run: Run, waiting: RunRecord, log: RunEventLog, controller: AbortController, control: RunControl = {}): Promise<RunResult> {
    const started = waiting.createdAt;
    const book: RunBook = { record: waiting, fileChanges: Promise.resolve() };
    const warnings = new RunWarnings(runMessage(this.agentId, run.id), 'mcp');
    const hookWarnings = new RunWarnings(runMessage(this.agentId, run.id), 'hook');
    const stopHeartbeat = await this.turns.lease.keepAlive(run.id, controller);
    try {
      const snapshot = await loadConversation(this.store.checkpoints, this.record.checkpointRoot);
      const state: Record<string, unknown> = { ...snapshot.state };
      const approvals: ApprovalRecord[] = (await this.store.approvals?.list({ runId: run.id })) ?? [];
      const point = resumePointOf(waiting, approvals, snapshot.messages);
      const checkpointer = this.checkpointerFor(point ? point.messages : repairConversation(snapshot.messages).messages, point?.mode ?? snapshot.mode);
      const settings = await loadSendSettingsOrError(this.options, this.workspace, this.runtime.registry.modes(), this.runtime.registry.mcp() !== undefined);
      // The run's opening events are written already: its hook warnings are written as they come.
      await log.append(hookWarnings.open(point?.mode ?? snapshot.mode, log));
      const hooks = point && !settings.error ? await this.hooks.openRun({ runId: run.id, mode: point.mode, warn: hookWarnings.warnText, signal: controller.signal, resumed: true }) : { reminders: [] };
      const outcome: RunOutcome = !point
        ? { status: 'error', result: '', messages: repairConversation(snapshot.messages).messages, mode: snapshot.mode, error: { message: 'The run waited for approval, but its saved conversation does not show what it waited for; it was closed.', code: 'interrupted' } }
        : settings.error
          ? { status: 'error', result: '', messages: repairConversation(snapshot.messages).messages, mode: point.mode, error: { message: settings.error.message, code: settings.error.code ?? 'configuration_error' } }
          : hookRunOutcome(hooks, point.messages, point.mode) ?? await executeRun(buildRunPlan(this.planSource(hooks.hooks), { run, book, log, controller, options: {}, settings: settings.value, checkpointer, tools: await this.runTools({}, warnings.opened(point.mode, log), controller.signal), state, mode: point.mode, messages: point.messages, resume: point.resume }));
      return await this.finishRun(run, book, log, outcome, state, checkpointer, started, point?.mode ?? snapshot.mode, control);
    } finally {
      warnings.end();
      hookWarnings.end();
      stopHeartbeat();
    }
  }

  /** The registry's tools and the custom tools, then the MCP servers' (started now; none with `warn` undefined). */
  private async runTools(options: SendOptions, warn: RunWarnings['warn'] | undefined, signal: AbortSignal) {
    const fixed = await this.subagents.bind([...this.runtime.registry.tools(), ...customToolsToDefinitions(options.local?.customTools ?? this.options.local?.customTools)]);
    // A subagent's MCP tools are its parent's (one session per top-level agent), already in `fixed`.
    if (this.subagents.link?.inheritedTools) return () => fixed;
    return this.mcp.runTools(fixed, { send: options.mcpServers, agent: this.options.mcpServers }, signal, warn);
  }

  /**
   * Every checkpoint (each step, and before tools run) moves the agent row, so a killed process
   * leaves the conversation of its last complete step for the next one. A store with
   * `commitCheckpoint` writes the blobs and the row in one transaction (checkpoint-writes.ts).
   */
  private checkpointerFor(history: ModelMessage[], startMode: string): ConversationCheckpointer {
    // A mode the run switched to is the agent's at once (a crash resumes in it); a send's own mode is not.
    const moveTo = (root: string, mode: string) => ({ checkpointRoot: root, ...(mode !== startMode ? { mode } : {}), updatedAt: Date.now() });
    const snapshot = { root: this.record.checkpointRoot, messages: history };
    return new ConversationCheckpointer(this.store.checkpoints, snapshot, checkpointWrites(this.store, this.agentId, moveTo, (record) => (this.record = record)));
  }

  /** What a run's plan is built from (agent-run-plan.ts); `hooks`: the run's (agent-hooks.ts), in place of the raw callbacks. */
  private planSource(hooks?: AgentHooks): RunPlanAgent {
    return {
      agentId: this.agentId,
      cwd: this.workspace,
      options: { ...this.options, hooks },
      runtime: this.runtime,
      store: this.store,
      resolved: this.resolved,
      approvals: this.approvals,
      editFeedback: this.editFeedback,
      onModeChanged: (next) => {
        this.currentMode = next;
      },
      onTurnUpdate: async (run, update) => recordTurnUsage(run, update),
    };
  }

  /** End a run (run-finish.ts); the agent row moves to the run's final checkpoint first. */
  private async finishRun(run: Run, book: RunBook, log: RunEventLog, outcome: RunOutcome, state: Record<string, unknown>, checkpointer: ConversationCheckpointer, started: number, startMode: string, control: RunControl = {}): Promise<RunResult> {
    // Handed back: stop as a stopped process would, with the last complete step's checkpoint and no final status.
    if (control.handBack?.aborted) {
      await checkpointer.settled();
      await log.flush();
      throw handedBack;
    }
    const withChildren = this.subagents.withChildUsage(run.id, outcome);
    return finishRun({ store: this.store, run, book, log, ...withChildren, state, checkpointer, started, approvals: this.approvals.channel, ...(control.finalize ? { finalize: control.finalize } : {}) }, async (root) => {
      // A mode the run switched to stays the agent's; a mode given for this send only does not.
      if (outcome.mode !== startMode) this.currentMode = outcome.mode;
      this.record = await this.store.agents.update(this.agentId, { checkpointRoot: root, mode: this.currentMode, model: this.selection, updatedAt: Date.now() });
    });
  }

  /** Requests for approval of this agent's runs that nobody answered yet, oldest first. */
  async pendingApprovals(): Promise<ApprovalRecord[]> {
    return this.approvals.channel.store.list({ agentId: this.agentId, status: 'pending' });
  }

  private modeDefinition(id: string): ModeDefinition {
    return assertMode(this.runtime, id);
  }

  /** A send's model override: it stays the agent's for later sends. */
  private useModel(model: ModelSelection | string): void {
    const selection = normalizeModelSelection(model);
    this.resolved = resolveModelSelection(this.runtime.registry, selection, this.options);
    this.selection = selection;
    this.shownSelection = selection;
  }

  /** The model a run uses as run.model shows it: the concrete id with the selection's params. */
  private runSelection(): ModelSelection {
    return selectionOf(this.resolved, this.selection);
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
    return readAgentArtifact(this.store, { agentId: this.agentId, cwd: this.workspace }, path);
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
    await this.mcp.reload();
  }

  /** Waits for the last send, then closes the agent's MCP servers and runs its session-end hooks. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.lastSend.catch(() => undefined);
    await this.mcp.close();
    await this.hooks.close();
    await this.editFeedback.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}

/** A resume's own `local.cwd`, canonical as Agent.create makes it; a missing folder is a clear error. */
async function resumedWorkspace(cwd: string): Promise<string> {
  return canonicalWorkspaceRoot(cwd).catch(() => {
    throw new ConfigurationError(`The workspace folder ${cwd} does not exist. Create it or pass another local.cwd to Agent.resume.`);
  });
}

async function isDirectory(path: string): Promise<boolean> {
  const { stat } = await import('node:fs/promises');
  return stat(path).then((entry) => entry.isDirectory(), () => false);
}
