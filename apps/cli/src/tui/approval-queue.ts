import { cliCairnHome } from '../commands/mcp-trust-store.js';
import { type ApprovalRequest, describeRequest, rememberedRuleFor } from '@cairn/server/workspace-permissions';
import type { StateStore } from './chat-state.js';
import { workspacePermissions } from '@cairn/server/workspace-permissions';

export type ApprovalChoice = 'once' | 'always' | 'deny';
export type ApprovalAnswer = (callId: string, decision: boolean | { approved: boolean; reason?: string }) => Promise<void>;

/**
 * The approval requests of the running run, shown one at a time; "always" is remembered for the
 * workspace (the user file of workspace-permissions.ts) and, for this chat, answered here at once
 * the next time (the agent's own rules only pick it up at the next agent).
 */
export class ApprovalQueue {
  private open: ApprovalRequest[] = [];
  private remembered = new Set<string>();

  constructor(
    private readonly store: StateStore,
    private readonly workspace: () => string,
    private readonly env: Record<string, string | undefined>,
    private readonly answer: ApprovalAnswer,
  ) {}

  /** The rules remembered for this workspace before (only mode switches need the UI's help). */
  reset(rules: readonly string[]): void {
    this.remembered = new Set(rules);
  }

  add(request: ApprovalRequest): void {
    const rule = rememberedRuleFor(request, this.workspace());
    if (rule && this.remembered.has(rule)) {
      void this.answer(request.callId, true);
      return;
    }
    this.open.push(request);
    this.showNext();
  }

  /** Someone answered (this UI, another process, a timeout): the next request comes up. */
  decided(callId: string): void {
    this.open = this.open.filter((request) => request.callId !== callId);
    this.showNext();
  }

  /** The run ended: nothing is open any more. */
  clear(): void {
    this.open = [];
  }

  showNext(): void {
    const next = this.open[0];
    const prompt = this.store.get().prompt;
    if (prompt?.kind === 'plan' || prompt?.kind === 'trust') return;
    this.store.update((state) => ({
      prompt: next ? { kind: 'approval', request: next, canRemember: rememberedRuleFor(next, this.workspace()) !== undefined } : undefined,
      running: state.running ? { ...state.running, waiting: next !== undefined } : undefined,
    }));
  }

  /** The answer to the prompt on screen: y (once), a (always for this workspace), n (deny). */
  async choose(choice: ApprovalChoice): Promise<void> {
    const prompt = this.store.get().prompt;
    if (prompt?.kind !== 'approval') return;
    const { request } = prompt;
    this.open = this.open.filter((open) => open.callId !== request.callId);
    this.store.update({ prompt: undefined });
    const approved = choice !== 'deny';
    this.store.push({ kind: approved ? 'info' : 'error', text: `${approved ? 'allowed' : 'denied'}${choice === 'always' ? ' always in this workspace' : ''}: ${describeRequest(request)}` });
    if (choice === 'always') await this.remember(request);
    await this.answer(request.callId, approved ? true : { approved: false, reason: 'the user denied it' });
    this.showNext();
  }

  private async remember(request: ApprovalRequest): Promise<void> {
    const cwd = this.workspace();
    const rule = rememberedRuleFor(request, cwd);
    if (!rule) return;
    this.remembered.add(rule);
    try {
      const file = workspacePermissions(cliCairnHome(this.env));
      await file.remember(cwd, rule);
      this.store.push({ kind: 'info', text: `remembered ${rule} in ${file.file}` });
    } catch (error) {
      this.store.push({ kind: 'error', text: `could not remember ${rule}: ${error instanceof Error ? error.message : String(error)}` });
    }
  }
}
