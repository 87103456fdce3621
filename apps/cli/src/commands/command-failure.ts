import { describeCliError, exitCodeFor } from '../cli-errors.js';
import { writeJsonError } from '../render/json-lines.js';
import type { OutputFormat } from '../render/run-renderer.js';
import { UsageError } from './open-agent.js';

/**
 * A headless command that failed before or outside a run: the one-line message on stderr, and with
 * `json`/`stream-json` the same message as a `result` object on stdout. Resolves to the exit code.
 */
export function reportCommandFailure(error: unknown, target: { outputFormat: OutputFormat; stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream }, sessionId?: string): number {
  const usage = error instanceof UsageError;
  const line = usage ? `cairn: ${error.message}` : describeCliError(error);
  target.stderr.write(`${line}\n`);
  if (target.outputFormat !== 'text') writeJsonError(target.stdout, line.split('\n')[0] ?? line, { ...(sessionId ? { sessionId } : {}), code: usage || exitCodeFor(error) === 2 ? 'configuration_error' : 'error' });
  return usage ? error.exitCode : exitCodeFor(error);
}
