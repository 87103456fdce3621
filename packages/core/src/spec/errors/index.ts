export { CairnAgentError, CairnError, type CairnErrorOptions, CairnSdkError } from './cairn-error.js';
export {
  AgentBusyError, ConfigurationError, LeaseLostError, isAbortError, isRetryableStatus, ProviderError, type ProviderErrorOptions,
  ToolError, UnsupportedRunOperationError,
} from './errors.js';
export type { RunOperation } from './run-operation.js';
