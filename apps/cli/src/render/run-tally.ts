import type { InteractionUpdate, SDKMessage } from '@cairn/sdk';

/** A tool call the permission rules (or a refused approval) kept from running, in Claude Code's shape. */
export interface PermissionDenial {
  tool_name: string;
  tool_use_id: string;
  tool_input: unknown;
}

export type PlanData = { name?: string; overview?: string; plan?: string; todos?: Array<{ id: string; content: string; dependencies?: string[] }> };

// The result text core gives a call that permission rules or a person refused (deniedCall in
// @cairn/core). Headless runs deny `ask` rules without an approval event, so this text is the only sign.
const deniedPrefix = 'Permission denied for ';

/**
 * What one run's events say beyond its RunResult: model calls (Claude Code's `num_turns`), the time
 * spent waiting on the model (`duration_api_ms`), refused tool calls and a proposed plan.
 */
export class RunTally {
  turns = 0;
  apiMs = 0;
  plan: PlanData | undefined;
  readonly denials: PermissionDenial[] = [];
  private stepStartedAt: number | undefined;
  private readonly asked = new Map<string, { toolName?: string; args?: unknown }>();

  onDelta(update: InteractionUpdate, now = Date.now()): void {
    if (update.type === 'step-started') {
      this.turns += 1;
      this.stepStartedAt = now;
    } else if (update.type === 'turn-ended' && this.stepStartedAt !== undefined) {
      this.apiMs += now - this.stepStartedAt;
      this.stepStartedAt = undefined;
    } else if (update.type === 'plan-created') {
      this.plan = update.plan as PlanData;
    } else if (update.type === 'approval-requested' && update.kind === 'tool') {
      this.asked.set(update.callId, { ...(update.toolName ? { toolName: update.toolName } : {}), args: update.args });
    } else if (update.type === 'approval-decided' && !update.approved) {
      const asked = this.asked.get(update.callId);
      if (asked) this.deny(update.callId, asked.toolName ?? 'unknown', asked.args);
    }
  }

  onMessage(message: SDKMessage): void {
    if (message.type !== 'tool_call' || message.status !== 'error') return;
    if (typeof message.result === 'string' && message.result.startsWith(deniedPrefix)) this.deny(message.call_id, message.name, message.args);
  }

  private deny(callId: string, toolName: string, input: unknown): void {
    if (this.denials.some((denial) => denial.tool_use_id === callId)) return;
    this.denials.push({ tool_name: toolName, tool_use_id: callId, tool_input: input ?? {} });
  }
}
