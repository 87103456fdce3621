import type { ConnectionState } from '../client/run-events.js';
import type { RunViewState } from '../state/run-view-types.js';
import type { AgentUsage, TokenUsage } from '../wire-types.js';
import { compactNumber, dollars, seconds } from './format.js';

export type RunStatusValue = 'idle' | 'running' | 'awaiting-approval' | 'finished' | 'error' | 'cancelled';

/** The latest run's state in one word; a run waiting on a person says so. */
export function runStatusOf(run: RunViewState | undefined): RunStatusValue {
  if (!run || run.status === 'idle') return 'idle';
  if (run.status === 'running' && run.approvals.some((approval) => approval.status === 'pending')) return 'awaiting-approval';
  return run.status;
}

export function RunStatusLine({ run }: { run: RunViewState | undefined }) {
  const status = runStatusOf(run);
  const duration = run?.run?.durationMs;
  const text: Record<RunStatusValue, string> = {
    idle: 'Ready',
    running: run?.mode ? `Running in ${run.mode} mode…` : 'Running…',
    'awaiting-approval': 'Waiting for your approval',
    finished: duration ? `Finished in ${seconds(duration)}` : 'Finished',
    error: `Failed${run?.error?.message ? `: ${run.error.message}` : ''}`,
    cancelled: 'Cancelled',
  };
  return (
    <output className={`cairn-run-status cairn-run-status-${status}`} data-testid="run-status" data-status={status} aria-live="polite">
      {text[status]}
    </output>
  );
}

/**
 * Tokens and cost of the agent over all its runs (from the server, reloaded when a run ends), plus
 * the tokens of the run going on now, which the server's total counts only once it ended.
 */
export function UsageDisplay({ usage, live }: { usage?: AgentUsage; live?: TokenUsage }) {
  const tokens = (usage?.usage.totalTokens ?? 0) + (live?.totalTokens ?? 0);
  const cost = usage?.cost?.chargedCents;
  const title = usage ? `input ${usage.usage.inputTokens}, output ${usage.usage.outputTokens}, cache read ${usage.usage.cacheReadTokens}, over ${usage.runs.length} run(s)` : undefined;
  return (
    <span className="cairn-usage" data-testid="usage" data-total-tokens={tokens} data-cost-cents={cost ?? ''} title={title}>
      {compactNumber(tokens)} tokens{cost !== undefined ? ` · ${dollars(cost)}` : ''}
    </span>
  );
}

const connectionText: Record<ConnectionState, string> = { connecting: 'Connecting…', open: 'Live', reconnecting: 'Reconnecting…', closed: 'Not streaming' };

export function ConnectionBadge({ state }: { state: ConnectionState }) {
  return (
    <span className={`cairn-connection cairn-connection-${state}`} data-testid="connection" data-state={state}>
      <span className="cairn-connection-dot" aria-hidden="true" />
      {connectionText[state]}
    </span>
  );
}
