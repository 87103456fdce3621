import { CairnError, ConfigurationError, ProviderError } from '@cairn/sdk';

/**
 * One clear line for the errors a user can fix (missing key, unknown model, unreachable endpoint,
 * missing sandbox), with the fix in it. Anything else keeps its message, and its stack with DEBUG.
 */
export function describeCliError(error: unknown): string {
  if (ConfigurationError.isInstance(error)) return `cairn: ${error.message}`;
  if (ProviderError.isInstance(error)) {
    const status = error.status ? ` (HTTP ${error.status})` : '';
    if (error.status === 401 || error.status === 403) {
      return `cairn: ${error.provider} rejected the API key${status}: ${error.message}. Check the key (for example OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY).`;
    }
    if (error.status === 404) return `cairn: ${error.provider} does not know this model${status}: ${error.message}. List models with \`cairn models\`.`;
    return `cairn: ${error.provider} failed${status}: ${error.message}`;
  }
  if (CairnError.isInstance(error)) return `cairn: ${error.message}`;
  if (error instanceof Error) return `cairn: ${error.message}${process.env.DEBUG ? `\n${error.stack}` : ''}`;
  return `cairn: ${String(error)}`;
}

/** Exit codes: 1 the run failed, 2 bad usage or configuration, 130 cancelled (like a shell's SIGINT). */
export function exitCodeFor(error: unknown): number {
  return ConfigurationError.isInstance(error) ? 2 : 1;
}
