export { abortReason, rethrowIfAborted, throwIfAborted } from './abort.js';
export { callProvider, driveProviderStream, type ProviderStreamInput } from './drive-stream.js';
export { createMessageCache, type MessageCache } from './message-cache.js';
export { classifyNetworkError, type NetworkFailure, retryableNetworkCodes } from './network-error.js';
export { type NetworkErrorContext, networkProviderError } from './network-provider-error.js';
export { callHeaders, headersToRecord, type SdkRequestOptions, sdkRequestOptions } from './request-options.js';
export {
  asBoolean, asInstance, asNumber, asOneOf, asString, defaultProviderContext, headersSetting, resolveSetting, type SettingLayers, type SettingReader,
  settingLayers, stringSetting,
} from './settings.js';
export { asFetch, sdkFetch } from './transport.js';
// Retry-after parsing has one home, core's error entry (the runtime reads the advice off ProviderError); re-exported for providers.
export { maxRetryAfterMs, parseRetryAfterHeaders, type RetryAfterAdvice, type RetryAfterHeaders, retryAfterNote } from '@cairn/core/errors';
