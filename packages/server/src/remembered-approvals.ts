import type { Run } from '@cairn/core/node';
import { rememberedRuleFor, type WorkspacePermissions } from './workspace-permissions/index.js';

/**
 * Answer, for one run, the requests a person already allowed always for this workspace. The rule
 * was remembered after the run's agent was opened, so its permission options do not have it yet;
 * later handles get it as an allow rule (AgentPool.optionsFor). Mode switches are only ever
 * answered here: they are not permission rules.
 */
export function answerRememberedApprovals(run: Run, cwd: string, permissions: WorkspacePermissions): void {
  const follow = async () => {
    for await (const { event } of run.storedEvents()) {
      if (event.kind !== 'update' || event.update.type !== 'approval-requested') continue;
      const rule = rememberedRuleFor(event.update, cwd);
      if (!rule || !(await permissions.rules(cwd)).includes(rule)) continue;
      // Someone may have answered first; that answer stands.
      await run.approve(event.update.callId, { approved: true, reason: `allowed always in this workspace (${rule})` }).catch(() => undefined);
    }
  };
  void follow().catch(() => undefined);
}
