// `@cairn/core/errors`: the error classes and the retry advice they carry, and nothing else of the
// runtime, so that a provider can throw `ProviderError` without loading the agent, the run machine,
// xstate or zod. The same classes as the root entry's (one module, one brand per class).
export {
  AgentBusyError, CairnAgentError, CairnError, type CairnErrorOptions, CairnSdkError, ConfigurationError, isAbortError, isRetryableStatus,
  ProviderError, type ProviderErrorOptions, type RunOperation, ToolError, UnsupportedRunOperationError,
} from './spec/errors/index.js';
export { maxRetryAfterMs, parseRetryAfterHeaders, type RetryAfterAdvice, type RetryAfterHeaders, retryAfterNote } from './model-call/retry-after.js';
