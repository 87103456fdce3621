import { Agent, type CairnAgent } from '@cairn/sdk';
import { defaultModel, noModelMessage } from '../default-model.js';
import { cliHookLocalOptions } from './hooks-trust.js';
import { cliMcpLocalOptions } from './mcp-trust.js';

/** What a headless command needs to open its agent. */
export interface OpenAgentOptions {
  cwd: string;
  model?: string;
  mode?: string;
  resume?: string;
  sandbox: boolean;
  maxSteps?: number;
  /** With `resume`: take the agent over from another process that holds it (its running run is cancelled). */
  force?: boolean;
  /** Where a project MCP server or hook not trusted yet is confirmed, when it is a terminal. */
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream;
  env: Record<string, string | undefined>;
}

/** A mistake in the command line or environment: exit code 2, and the message says what to change. */
export class UsageError extends Error {
  readonly exitCode = 2;
}

/** Create the agent, or resume `--resume`'s; throws UsageError when no model is configured. */
export async function openAgent(options: OpenAgentOptions): Promise<CairnAgent> {
  const model = options.model ?? (options.resume ? undefined : defaultModel(options.env));
  if (!model && !options.resume) throw new UsageError(noModelMessage);
  const retry = retryFromEnv(options.env);
  const trustIo = { cwd: options.cwd, env: options.env, stderr: options.stderr, ...(options.stdin ? { stdin: options.stdin } : {}) };
  const common = {
    ...(model ? { model } : {}),
    ...(options.maxSteps ? { maxSteps: options.maxSteps } : {}),
    ...(retry ? { retry } : {}),
    // `--no-diagnostics` / CAIRN_DIAGNOSTICS=off: no language server after edits (docs/diagnostics.md).
    ...(diagnosticsOff(options.env) ? { toolSettings: { diagnostics: false } } : {}),
    local: {
      cwd: options.cwd,
      ...(options.sandbox ? { sandboxOptions: { enabled: true } } : {}),
      ...cliMcpLocalOptions(trustIo),
      ...cliHookLocalOptions(trustIo),
      ...(options.force && options.resume ? { force: true } : {}),
    },
  };
  return options.resume ? Agent.resume(options.resume, common) : Agent.create({ ...common, ...(options.mode ? { mode: options.mode } : {}) });
}

/** CAIRN_RETRY_MAX_ATTEMPTS caps model-call attempts (1 = no retry), e.g. for scripts that must fail fast. */
function retryFromEnv(env: Record<string, string | undefined>): { maxAttempts: number } | undefined {
  const attempts = Number(env.CAIRN_RETRY_MAX_ATTEMPTS);
  return Number.isInteger(attempts) && attempts >= 1 ? { maxAttempts: attempts } : undefined;
}

/** CAIRN_DIAGNOSTICS=off (or 0, false, no) switches the diagnostics after edits off. */
export function diagnosticsOff(env: Record<string, string | undefined>): boolean {
  return ['off', '0', 'false', 'no'].includes((env.CAIRN_DIAGNOSTICS ?? '').trim().toLowerCase());
}
