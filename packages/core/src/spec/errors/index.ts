export { CairnError, type CairnErrorOptions } from './cairn-error.js';
export {
  AgentBusyError, ConfigurationError, isAbortError, isRetryableStatus, ProviderError, type ProviderErrorOptions,
  ToolError, UnsupportedRunOperationError,
} from './errors.js';
