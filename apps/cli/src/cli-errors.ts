import { AgentBusyError, CairnError, ConfigurationError, ProviderError } from '@cairn/sdk';
import { busyAgentText, inCliTerms } from './cli-error-text.js';

/**
 * One clear line for the errors a user can fix (missing key, unknown model, unreachable endpoint,
 * busy agent, missing sandbox), naming the flag, environment variable or file to change rather than
 * an SDK option. Anything else keeps its message, and its stack with DEBUG.
 */
export function describeCliError(error: unknown): string {
  if (AgentBusyError.isInstance(error)) return `cairn: ${busyAgentText(error.agentId, error.activeRunId)}`;
  if (ConfigurationError.isInstance(error)) return `cairn: ${inCliTerms(error.message)}`;
  if (ProviderError.isInstance(error)) return `cairn: ${describeProviderError(error)}`;
  if (CairnError.isInstance(error)) return `cairn: ${inCliTerms(error.message)}`;
  if (error instanceof Error) return `cairn: ${error.message}${process.env.DEBUG ? `\n${error.stack}` : ''}`;
  return `cairn: ${String(error)}`;
}

function describeProviderError(error: ProviderError): string {
  const status = error.status ? ` (HTTP ${error.status})` : '';
  const message = inCliTerms(error.message);
  if (error.status === 401 || error.status === 403) {
    return `${error.provider} rejected the API key${status}: ${message}. Check the key (for example OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY).`;
  }
  if (error.status === 404) return `${error.provider} does not know this model${status}: ${message}. List models with \`cairn models\`.`;
  // An unreachable server's message already names the address and the variable to fix.
  if (error.code === 'provider_unreachable') return message;
  return `${error.provider} failed${status}: ${message}`;
}

/** A failed run's error, as the last line of a headless run prints it. */
export function describeRunFailure(error: { message?: string } | undefined): string {
  return `cairn: ${inCliTerms(error?.message ?? 'the run failed')}`;
}

/** Exit codes: 1 the run failed, 2 bad usage or configuration, 130 cancelled (like a shell's SIGINT). */
export function exitCodeFor(error: unknown): number {
  if (AgentBusyError.isInstance(error)) return 1;
  return ConfigurationError.isInstance(error) ? 2 : 1;
}
