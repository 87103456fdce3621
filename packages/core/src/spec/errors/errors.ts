import { CairnSdkError as CairnError, type CairnErrorOptions, hasBrand } from './cairn-error.js';
import type { RunOperation } from './run-operation.js';

const configurationBrand = Symbol.for('cairn.error.ConfigurationError');
/** Bad options, a missing key, a missing sandbox dependency. The message names the fix. */
export class ConfigurationError extends CairnError {
  readonly [configurationBrand] = true;
  constructor(message: string, options: CairnErrorOptions = {}) {
    super(message, { code: 'configuration_error', ...options });
    this.name = 'ConfigurationError';
  }
  static override isInstance(value: unknown): value is ConfigurationError {
    return hasBrand(value, configurationBrand);
  }
}

const leaseLostBrand = Symbol.for('cairn.error.LeaseLostError');
/**
 * A write came from a process whose lease on the agent was taken over (it was paused or cut off
 * past the lease's expiry, and another process now runs the agent). A store that fences writes
 * rejects every write of the old holder with this error, so a stale worker cannot change a run
 * another worker took over. Not retryable: the writer must stop.
 */
export class LeaseLostError extends CairnError {
  readonly [leaseLostBrand] = true;
  readonly agentId: string;
  readonly runId: string;
  constructor(agentId: string, runId: string, options: CairnErrorOptions = {}) {
    super(
      `The lease on agent ${agentId} for run ${runId} was taken over by another process; this process may no longer write to the run. ` +
        'It was paused or cut off for longer than the lease lasts (see docs/background-agents.md).',
      { code: 'lease_lost', isRetryable: false, ...options },
    );
    this.name = 'LeaseLostError';
    this.agentId = agentId;
    this.runId = runId;
  }
  static override isInstance(value: unknown): value is LeaseLostError {
    return hasBrand(value, leaseLostBrand);
  }
}

const agentBusyBrand = Symbol.for('cairn.error.AgentBusyError');
/**
 * Another process holds a live run of this agent. Not retryable at once (`isRetryable: false`): the
 * other run must end, be cancelled, or be expired with `local.force`. Within one process sends queue
 * instead, whichever handle of the agent they come from.
 */
export class AgentBusyError extends CairnError {
  readonly [agentBusyBrand] = true;
  readonly agentId: string;
  readonly activeRunId?: string;
  constructor(agentId: string, activeRunId?: string, options: CairnErrorOptions = {}) {
    super(
      `Agent ${agentId} is busy with run ${activeRunId ?? '(unknown)'} in another process. ` +
        'Wait for it to finish, cancel it with Agent.cancelRun(runId), or send with { local: { force: true } } to expire it.',
      { code: 'agent_busy', isRetryable: false, ...options },
    );
    this.name = 'AgentBusyError';
    this.agentId = agentId;
    if (activeRunId !== undefined) this.activeRunId = activeRunId;
  }
  static override isInstance(value: unknown): value is AgentBusyError {
    return hasBrand(value, agentBusyBrand);
  }
}

const unsupportedBrand = Symbol.for('cairn.error.UnsupportedRunOperationError');
/** A Run operation that this run cannot perform (check `run.supports(operation)` first). */
export class UnsupportedRunOperationError extends ConfigurationError {
  readonly [unsupportedBrand] = true;
  declare readonly operation: RunOperation;
  constructor(operation: RunOperation, reason: string, options: CairnErrorOptions = {}) {
    super(`Run operation "${operation}" is not supported: ${reason}`, { code: 'unsupported_operation', operation, ...options });
    this.name = 'UnsupportedRunOperationError';
  }
  static override isInstance(value: unknown): value is UnsupportedRunOperationError {
    return hasBrand(value, unsupportedBrand);
  }
}

export interface ProviderErrorOptions extends CairnErrorOptions {
  provider: string;
  /** The provider's error body, parsed when it was JSON. */
  body?: unknown;
  /** Retry advice from the provider (Retry-After / retry-after-ms), capped; undefined when absent. */
  retryAfterMs?: number;
  /** True when the response had started streaming content before it failed: replay is not safe for tool calls. */
  responseStarted?: boolean;
  /** Every attempt's error, when this error ends a series of retries. */
  attempts?: unknown[];
}

const providerBrand = Symbol.for('cairn.error.ProviderError');
/** A model provider failed: HTTP status, the provider's body, and retry advice. */
export class ProviderError extends CairnError {
  readonly [providerBrand] = true;
  readonly provider: string;
  readonly body?: unknown;
  readonly retryAfterMs?: number;
  readonly responseStarted: boolean;
  readonly attempts: unknown[];
  constructor(message: string, options: ProviderErrorOptions) {
    super(message, {
      code: 'provider_error',
      isRetryable: options.isRetryable ?? isRetryableStatus(options.status),
      ...options,
    });
    this.name = 'ProviderError';
    this.provider = options.provider;
    if (options.body !== undefined) this.body = options.body;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
    this.responseStarted = options.responseStarted ?? false;
    this.attempts = options.attempts ?? [];
  }
  static override isInstance(value: unknown): value is ProviderError {
    return hasBrand(value, providerBrand);
  }
}

const toolBrand = Symbol.for('cairn.error.ToolError');
/** A tool refused its input or failed. The message is what the model reads, so it says what to do instead. */
export class ToolError extends CairnError {
  readonly [toolBrand] = true;
  readonly toolName?: string;
  constructor(message: string, options: CairnErrorOptions & { toolName?: string } = {}) {
    super(message, { code: 'tool_error', ...options });
    this.name = 'ToolError';
    if (options.toolName !== undefined) this.toolName = options.toolName;
  }
  static override isInstance(value: unknown): value is ToolError {
    return hasBrand(value, toolBrand);
  }
}

/** 408, 409, 429, 5xx and Anthropic's 529 are worth retrying; nothing else is. */
export function isRetryableStatus(status: number | undefined): boolean {
  if (status === undefined) return false;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** True for the errors an abort produces (DOM AbortError, Node's ABORT_ERR, SDK abort errors). */
export function isAbortError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const named = error as { name?: unknown; code?: unknown };
  return named.name === 'AbortError' || named.code === 'ABORT_ERR' || named.name === 'APIUserAbortError';
}
