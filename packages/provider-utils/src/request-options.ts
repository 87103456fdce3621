import type { LanguageModelV1CallOptions } from '@cairn/core/spec';

/** The per-request options the `openai` and `@anthropic-ai/sdk` clients take. */
export interface SdkRequestOptions {
  /** The runtime owns retries; an SDK retrying too would multiply attempts. */
  maxRetries: 0;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

/** The call's headers without the unset ones, or undefined when none is left. */
export function callHeaders(headers: LanguageModelV1CallOptions['headers']): Record<string, string> | undefined {
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers ?? {})) if (value !== undefined) result[key] = value;
  return Object.keys(result).length > 0 ? result : undefined;
}

/** Per-request SDK options for one call: its abort signal, its headers, and no SDK retries. */
export function sdkRequestOptions(options: Pick<LanguageModelV1CallOptions, 'abortSignal' | 'headers'>): SdkRequestOptions {
  const headers = callHeaders(options.headers);
  return { maxRetries: 0, ...(options.abortSignal ? { signal: options.abortSignal } : {}), ...(headers ? { headers } : {}) };
}

/** Response headers as a plain object, for `LanguageModelV1StreamResult.response`. */
export function headersToRecord(headers: Headers): Record<string, string> {
  const record: Record<string, string> = {};
  headers.forEach((value, key) => {
    record[key] = value;
  });
  return record;
}
