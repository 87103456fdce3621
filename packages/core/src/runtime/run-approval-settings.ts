import { ConfigurationError } from '../spec/errors/index.js';
import type { AgentStore } from '../spec/store/v1/index.js';
import type { AgentOptions } from './agent-options.js';
import { approvalChannel } from './approval-channel.js';
import type { RunApprovalSettings } from './run-approvals.js';

export interface AgentApprovalSettings extends RunApprovalSettings {
  /** `ask` verdicts go to the run's awaitingApproval state (someone can answer them). */
  askTools: boolean;
  /** Mode switches that need approval wait for it instead of being refused. */
  askModeSwitches: boolean;
}

/** How an agent's runs ask for approval, from its options; a bad option is an error of create/resume. */
export function approvalSettingsFor(options: Pick<AgentOptions, 'approvals' | 'approvalTimeoutMs' | 'canUseTool' | 'approveModeSwitch'>, store: AgentStore): AgentApprovalSettings {
  const { approvals, approvalTimeoutMs } = options;
  if (approvals !== undefined && approvals !== 'deny' && approvals !== 'wait') {
    throw new ConfigurationError(`approvals must be 'deny' (headless: refuse what needs approval) or 'wait' (wait for run.approve); got ${JSON.stringify(approvals)}.`);
  }
  if (approvalTimeoutMs !== undefined && !(Number.isFinite(approvalTimeoutMs) && approvalTimeoutMs > 0)) {
    throw new ConfigurationError(`approvalTimeoutMs must be a positive number of milliseconds; got ${JSON.stringify(approvalTimeoutMs)}.`);
  }
  if (approvalTimeoutMs !== undefined && approvals !== 'wait') throw new ConfigurationError("approvalTimeoutMs only applies with approvals: 'wait'. Set both, or leave the timeout out.");
  const wait = approvals === 'wait';
  return {
    channel: approvalChannel(store),
    ...(options.canUseTool ? { canUseTool: options.canUseTool } : {}),
    ...(options.approveModeSwitch ? { approveModeSwitch: options.approveModeSwitch } : {}),
    ...(approvalTimeoutMs === undefined ? {} : { timeoutMs: approvalTimeoutMs }),
    askTools: wait || options.canUseTool !== undefined,
    askModeSwitches: wait || options.approveModeSwitch !== undefined,
  };
}
