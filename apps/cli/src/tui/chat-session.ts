import type { Writable } from 'node:stream';
import { type CairnAgent, Cairn, type Run, type SendOptions } from '@cairn/sdk';
import { describeCliError } from '../cli-errors.js';
import { type AgentSetup, createChatAgent, rememberedRules, resumeChatAgent } from './agent-setup.js';
import { type ApprovalChoice, ApprovalQueue } from './approval-queue.js';
import type { ApprovalRequest } from '@cairn/server/workspace-permissions';
import { type ChatState, initialState, StateStore } from './chat-state.js';
import { planMarkdown } from './plan-format.js';
import { RunView } from './run-view.js';
import { helpText, modeNames, parseSlashCommand } from './slash-commands.js';
import { costLine, lastTurns, resumePicker } from './agent-catalog-view.js';
import { noticeStream, safetyNotice } from './session-notices.js';
import { TrustQuestions } from './trust-questions.js';

export interface ChatSessionOptions {
  cwd: string;
  model?: string;
  mode?: string;
  resume?: string;
  sandbox: boolean;
  env: Record<string, string | undefined>;
}

export type PlanChoice = 'approve' | 'edit' | 'reject';

const approvedPlanPrompt = 'The plan is approved. Implement it now.';

/**
 * The chat's behaviour, apart from how it is drawn: one agent at a time, one run at a time, the
 * questions a run waits on, and the slash commands. The Ink app renders `store` and calls the
 * methods below for the keys the user presses.
 */
export class ChatSession {
  readonly store: StateStore;
  private readonly notices: Writable;
  private readonly trust: TrustQuestions;
  private agent: CairnAgent | undefined;
  private mode: string | undefined;
  private pendingModel: string | undefined;
  private active: { controller: AbortController; run: Promise<Run>; view: RunView } | undefined;
  private readonly approvals: ApprovalQueue;
  modelIds: string[] = [];

  constructor(private readonly options: ChatSessionOptions) {
    this.store = new StateStore(initialState(options.cwd));
    this.notices = noticeStream(this.store);
    this.approvals = new ApprovalQueue(this.store, () => this.agent?.cwd ?? options.cwd, options.env, (callId, decision) => this.answer(callId, decision));
    this.trust = new TrustQuestions(this.store, () => this.approvals.showNext());
    this.mode = options.mode;
  }

  get agentId(): string | undefined {
    return this.agent?.agentId;
  }

  private get setup(): AgentSetup {
    return { env: this.options.env, sandbox: this.options.sandbox, stderr: this.notices, ask: (question) => this.trust.ask(question) };
  }

  /** Create or resume the agent; the error message (in CLI terms) when that fails, else undefined. */
  async start(): Promise<string | undefined> {
    void this.loadModelIds();
    try {
      if (this.options.resume) await this.switchTo(await resumeChatAgent(this.options.resume, this.pendingModelChoice(), this.setup), true);
      else await this.switchTo(await createChatAgent(this.options.cwd, { ...(this.options.model ? { model: this.options.model } : {}), ...(this.mode ? { mode: this.mode } : {}) }, this.setup), false);
      this.store.push({ kind: 'info', text: safetyNotice(this.options.env) });
      return undefined;
    } catch (error) {
      return describeCliError(error);
    }
  }

  private pendingModelChoice() {
    return this.options.model ? { model: this.options.model } : {};
  }

  private async loadModelIds(): Promise<void> {
    try {
      const models = await Cairn.models.list({ env: this.options.env });
      this.modelIds = [...new Set(models.flatMap((model) => [model.id, ...(model.aliases ?? [])]))].sort();
    } catch {
      this.modelIds = [];
    }
  }

  private async switchTo(agent: CairnAgent, resumed: boolean): Promise<void> {
    const previous = this.agent;
    this.agent = agent;
    if (previous && previous !== agent) await previous.close().catch(() => undefined);
    this.approvals.reset(await rememberedRules(agent.cwd, this.options.env).catch(() => []));
    this.store.update((state) => ({ footer: { ...state.footer, agentId: agent.agentId, cwd: agent.cwd, model: agent.model?.id ?? 'stored model', mode: this.mode ?? agent.mode, inputTokens: 0, outputTokens: 0, costCents: undefined } }));
    this.store.push({ kind: 'banner', text: `${resumed ? 'resumed' : 'cairn'} · agent ${agent.agentId} · ${agent.model?.id ?? 'stored model'}\nworkspace: ${agent.cwd}` });
    if (resumed) await this.showLastTurns(agent.agentId);
    await this.refreshUsage();
  }

  private async showLastTurns(agentId: string): Promise<void> {
    const { entries, history } = await lastTurns(agentId);
    this.store.update({ history });
    this.store.push(...entries);
  }

  /** What the Enter key sends: a slash command, or a message to the agent. */
  async submit(line: string): Promise<void> {
    const text = line.trim();
    if (!text || !this.agent) return;
    this.store.update({ exitArmed: false });
    if (this.active) {
      this.store.push({ kind: 'error', text: 'a run is going on: wait for it, or press Ctrl+C to cancel it' });
      return;
    }
    const command = parseSlashCommand(text);
    if (command) return this.runCommand(command);
    if (this.store.get().editingPlan) {
      this.store.update({ editingPlan: false });
      return this.runPrompt(text, { mode: 'plan' }, `Change the plan: ${text}`);
    }
    // `//etc/hosts is wrong` sends `/etc/hosts is wrong`: the escape for a message that starts with a slash.
    return this.runPrompt(text.startsWith('//') ? text.slice(1) : text, {});
  }

  private async runCommand(command: NonNullable<ReturnType<typeof parseSlashCommand>>): Promise<void> {
    switch (command.type) {
      case 'error':
        this.store.push({ kind: 'error', text: command.message });
        return;
      case 'help':
        this.store.push({ kind: 'info', text: helpText() });
        return;
      case 'exit':
        this.store.update({ exited: true });
        return;
      case 'mode':
        return this.setMode(command.mode);
      case 'model':
        return this.setModel(command.model);
      case 'new':
        return this.newAgent();
      case 'resume':
        return this.openResumePicker();
      case 'cost':
        return this.showCost();
    }
  }

  private setMode(mode: string): void {
    if (!modeNames.includes(mode)) {
      this.store.push({ kind: 'error', text: `unknown mode "${mode}": use ${modeNames.join(', ')}` });
      return;
    }
    this.mode = mode;
    this.store.update((state) => ({ footer: { ...state.footer, mode } }));
    this.store.push({ kind: 'info', text: `mode for the next messages: ${mode}` });
  }

  /** Why `model` is not usable, or undefined when the registry resolves it with this environment. */
  checkModel(model: string): string | undefined {
    try {
      Cairn.registry.resolveModel(model, { env: this.options.env });
      return undefined;
    } catch (error) {
      return describeCliError(error).replace(/^cairn: /, '');
    }
  }

  private setModel(model: string): void {
    const problem = this.checkModel(model);
    if (problem) {
      this.store.push({ kind: 'error', text: `/model ${model}: ${problem}` });
      return;
    }
    this.pendingModel = model;
    this.store.update((state) => ({ footer: { ...state.footer, model } }));
    this.store.push({ kind: 'info', text: `model for the next messages: ${model}` });
  }

  private async newAgent(): Promise<void> {
    try {
      const model = this.pendingModel ?? this.options.model ?? this.agent?.model?.id;
      await this.switchTo(await createChatAgent(this.agent?.cwd ?? this.options.cwd, { ...(model ? { model } : {}), ...(this.mode ? { mode: this.mode } : {}) }, this.setup), false);
      this.pendingModel = undefined;
    } catch (error) {
      this.store.push({ kind: 'error', text: describeCliError(error) });
    }
  }

  private async openResumePicker(): Promise<void> {
    const cwd = this.agent?.cwd ?? this.options.cwd;
    const picker = await resumePicker(cwd, this.agent?.agentId);
    if (picker) this.store.update({ prompt: picker });
    else this.store.push({ kind: 'info', text: `no other agents in ${cwd}` });
  }

  movePicker(delta: number): void {
    const prompt = this.store.get().prompt;
    if (prompt?.kind !== 'picker') return;
    const index = Math.min(prompt.items.length - 1, Math.max(0, prompt.index + delta));
    this.store.update({ prompt: { ...prompt, index } });
  }

  /** Enter on the picker resumes the chosen agent; Esc (`undefined`) closes it. */
  async choosePicked(confirm: boolean): Promise<void> {
    const prompt = this.store.get().prompt;
    if (prompt?.kind !== 'picker') return;
    this.store.update({ prompt: undefined });
    const chosen = prompt.items[prompt.index];
    if (!confirm || !chosen) return;
    try {
      await this.switchTo(await resumeChatAgent(chosen.id, {}, this.setup), true);
    } catch (error) {
      this.store.push({ kind: 'error', text: describeCliError(error) });
    }
  }

  private async showCost(): Promise<void> {
    if (this.agent) this.store.push({ kind: 'info', text: costLine(await this.agent.getUsage()) });
  }

  private async refreshUsage(): Promise<void> {
    const usage = await this.agent?.getUsage().catch(() => undefined);
    if (!usage) return;
    this.store.update((state) => ({ footer: { ...state.footer, inputTokens: usage.usage.inputTokens, outputTokens: usage.usage.outputTokens, costCents: usage.cost?.chargedCents } }));
  }

  /** Send one message and follow its run until it ends; `shown` is what the transcript shows as the user's words. */
  private async runPrompt(shown: string, sendOptions: SendOptions, text = shown): Promise<void> {
    const agent = this.agent;
    if (!agent) return;
    this.store.push({ kind: 'user', text: shown });
    const controller = new AbortController();
    const view = new RunView(this.store);
    this.store.update({ running: { startedAt: Date.now() }, todos: [], live: '' });
    let resolveRun!: (run: Run) => void;
    const run = new Promise<Run>((resolve) => (resolveRun = resolve));
    this.active = { controller, run, view };
    try {
      const started = await agent.send(text, {
        ...(this.mode ? { mode: this.mode } : {}),
        ...(this.pendingModel ? { model: this.pendingModel } : {}),
        ...sendOptions,
        signal: controller.signal,
        onDelta: ({ update }) => {
          if (update.type === 'approval-requested') this.onApprovalRequested(update as ApprovalRequest, view);
          else if (update.type === 'approval-decided') this.approvals.decided(update.callId);
          else view.onUpdate(update);
        },
      });
      resolveRun(started);
      this.pendingModel = undefined;
      const result = await started.wait();
      view.finish();
      if (result.status === 'error') this.store.push({ kind: 'error', text: `the run failed: ${result.error?.message ?? 'unknown error'}` });
      if (result.status === 'cancelled') this.store.push({ kind: 'info', text: 'cancelled' });
      if (result.status === 'finished' && view.plan) this.showPlan(view.plan);
    } catch (error) {
      view.finish();
      this.store.push({ kind: 'error', text: describeCliError(error) });
    } finally {
      this.active = undefined;
      this.approvals.clear();
      this.store.update((state) => ({ running: undefined, prompt: state.prompt?.kind === 'approval' ? undefined : state.prompt, footer: { ...state.footer, mode: this.mode ?? agent.mode } }));
      await this.refreshUsage();
    }
  }

  private showPlan(plan: NonNullable<RunView['plan']>, callId?: string): void {
    this.store.push({ kind: 'markdown', text: planMarkdown(plan) });
    this.store.update({ prompt: { kind: 'plan', plan, ...(callId ? { callId } : {}) } });
  }

  private onApprovalRequested(request: ApprovalRequest, view: RunView): void {
    if (request.kind === 'plan' && view.plan) {
      this.store.update((state) => ({ running: state.running ? { ...state.running, waiting: true } : undefined }));
      this.showPlan(view.plan, request.callId);
      return;
    }
    this.approvals.add(request);
  }

  /** The answer to the approval prompt on screen: y (once), a (always for this workspace), n (deny). */
  answerApproval(choice: ApprovalChoice): Promise<void> {
    return this.approvals.choose(choice);
  }

  private async answer(callId: string, decision: boolean | { approved: boolean; reason?: string }): Promise<void> {
    const active = this.active;
    if (!active) return;
    try {
      await (await active.run).approve(callId, decision);
    } catch (error) {
      // Answered already (the run ended or another process answered first): nothing left to do.
      this.store.push({ kind: 'error', text: describeCliError(error) });
    }
  }

  /** The plan prompt: approve runs it in agent mode, edit asks for the changes, reject keeps planning. */
  async answerPlan(choice: PlanChoice): Promise<void> {
    const prompt = this.store.get().prompt;
    if (prompt?.kind !== 'plan') return;
    this.store.update({ prompt: undefined });
    if (prompt.callId) {
      // The run waits on the plan (a switch_mode out of plan mode): answer it inside that run.
      await this.answer(prompt.callId, choice === 'approve' ? true : { approved: false, reason: choice === 'edit' ? 'the user wants changes to the plan first' : 'the user rejected the plan' });
      if (choice === 'approve') this.mode = undefined;
    }
    if (choice === 'approve') {
      this.store.push({ kind: 'info', text: 'plan approved' });
      this.mode = undefined;
      if (!prompt.callId) await this.runPrompt(approvedPlanPrompt, { approvePlan: true, mode: 'agent' });
      return;
    }
    if (choice === 'edit') {
      this.store.update({ editingPlan: true });
      this.store.push({ kind: 'info', text: 'describe the changes to the plan and press Enter' });
      return;
    }
    this.store.push({ kind: 'info', text: 'plan rejected; the agent stays in plan mode' });
  }

  answerTrustQuestion(yes: boolean): void {
    this.trust.answer(yes);
  }

  /** Ctrl+C: cancels a run; on an idle prompt the first press warns and the second exits. */
  interrupt(): void {
    const state = this.store.get();
    if (state.prompt?.kind === 'trust') this.answerTrustQuestion(false);
    if (this.active) {
      this.active.controller.abort();
      this.store.update({ prompt: undefined });
      return;
    }
    if (state.prompt) {
      this.store.update({ prompt: undefined });
      return;
    }
    if (state.exitArmed) this.store.update({ exited: true });
    else this.store.update({ exitArmed: true });
  }

  disarmExit(): void {
    if (this.store.get().exitArmed) this.store.update({ exitArmed: false });
  }

  toggleLastResult(): void {
    this.store.update((state) => ({ expanded: !state.expanded && state.lastResult !== undefined }));
  }

  isRunning(): boolean {
    return this.active !== undefined;
  }

  async close(): Promise<void> {
    this.active?.controller.abort();
    await this.agent?.close().catch(() => undefined);
  }

  snapshot(): ChatState {
    return this.store.get();
  }
}
