import type { InteractionUpdate } from '@cairn/core';
import type { Run } from '@cairn/core/node';
import { type ApprovalRequest, rememberedRuleFor, type WorkspacePermissions } from './workspace-permissions/index.js';

/**
 * Answers, for one run, the requests a person already allowed always for this workspace. The rule
 * was remembered after the run's agent was opened, so its permission options do not have it yet;
 * later handles get it as an allow rule (AgentPool.optionsFor). Mode switches are only ever
 * answered here: they are not permission rules. Fed by the send's `onDelta` (no second read of the
 * run's log); requests that arrive before `send` returned the run wait for `attach`.
 */
export class RememberedApprovals {
  private run: Run | undefined;
  private early: ApprovalRequest[] = [];

  constructor(
    private readonly cwd: string,
    private readonly permissions: WorkspacePermissions,
  ) {}

  readonly onDelta = ({ update }: { update: InteractionUpdate }): void => {
    if (update.type !== 'approval-requested') return;
    if (this.run) void this.answer(this.run, update);
    else this.early.push(update);
  };

  attach(run: Run): void {
    this.run = run;
    for (const request of this.early.splice(0)) void this.answer(run, request);
  }

  private async answer(run: Run, request: ApprovalRequest): Promise<void> {
    const rule = rememberedRuleFor(request, this.cwd);
    if (!rule || !(await this.permissions.rules(this.cwd).catch((): string[] => [])).includes(rule)) return;
    // Someone may have answered first; that answer stands.
    await run.approve(request.callId, { approved: true, by: 'api', reason: `allowed always in this workspace (${rule})` }).catch(() => undefined);
  }
}
