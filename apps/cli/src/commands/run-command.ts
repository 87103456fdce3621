import type { CairnAgent, RunResult } from '@cairn/sdk';
import { describeRunFailure } from '../cli-errors.js';
import { writeJsonLine } from '../render/json-lines.js';
import { permissionsNotice } from '../render/permissions-notice.js';
import { resultLine } from '../render/result-message.js';
import type { OutputFormat } from '../render/run-renderer.js';
import { createStreamJson } from '../render/stream-json.js';
import { reportCommandFailure } from './command-failure.js';
import { type OpenAgentOptions, openAgent } from './open-agent.js';
import { promptRuns, type RunOutput } from './prompt-runs.js';

export { renderPlan } from './prompt-runs.js';

export interface RunCommandOptions extends OpenAgentOptions {
  prompt: string;
  outputFormat: OutputFormat;
  /** After a plan-mode run that proposed a plan, approve it and execute it in agent mode. */
  planApprove?: boolean;
  /** --force: take over an agent busy in another process. */
  force?: boolean;
  stdout: NodeJS.WritableStream;
  color: boolean;
  signal?: AbortSignal;
}

/** `cairn "prompt"`: one headless run, streamed; the exit code says how it ended. */
export async function runPromptCommand(options: RunCommandOptions): Promise<number> {
  let agent: CairnAgent | undefined;
  try {
    agent = await openAgent(options);
    if (options.outputFormat === 'text') options.stderr.write(`${await permissionsNotice(options.cwd, options.env, options.mode)}\n`);
    const runs = await promptRuns(agent, options.prompt, options, runOutput(options, agent.agentId));
    if (options.outputFormat !== 'text') writeJsonLine(options.stdout, resultLine(agent.agentId, runs));
    await agent.close();
    return reportEnd(runs.at(-1)?.result, agent.agentId, options);
  } catch (error) {
    await agent?.close().catch(() => undefined);
    return reportCommandFailure(error, options, agent?.agentId);
  }
}

/** How a headless command prints its agent's runs; stream-json keeps one translator for the agent. */
export function runOutput(options: RunCommandOptions | Omit<RunCommandOptions, 'prompt'>, sessionId: string): RunOutput {
  return {
    outputFormat: options.outputFormat,
    stdout: options.stdout,
    stderr: options.stderr,
    color: options.color,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.outputFormat === 'stream-json' ? { streamJson: createStreamJson(sessionId, (line) => writeJsonLine(options.stdout, line)) } : {}),
  };
}

/**
 * The exit code of a run (0 finished, 1 failed, 130 cancelled), and in text mode how to continue the
 * agent, whatever the run's end: a failed or cancelled run is as worth resuming as a finished one.
 */
export function reportEnd(result: RunResult | undefined, agentId: string, options: { outputFormat: OutputFormat; stderr: NodeJS.WritableStream }): number {
  const status = result?.status ?? 'error';
  if (options.outputFormat === 'text') {
    if (status === 'error') options.stderr.write(`${describeRunFailure(result?.error)}\n`);
    const ended = status === 'finished' ? '' : ` · ${status === 'cancelled' ? 'cancelled' : 'failed'}`;
    options.stderr.write(`\n[agent ${agentId} · run ${result?.id ?? '-'}${ended} · resume with --resume ${agentId}]\n`);
  }
  if (status === 'finished') return 0;
  return status === 'cancelled' ? 130 : 1;
}
