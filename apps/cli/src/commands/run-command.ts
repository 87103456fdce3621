import { Agent, type CairnAgent, type RunResult, type SendOptions } from '@cairn/sdk';
import { describeCliError, exitCodeFor } from '../cli-errors.js';
import { defaultModel, noModelMessage } from '../default-model.js';
import { cliMcpLocalOptions } from './mcp-trust.js';
import { cliHookLocalOptions } from './hooks-trust.js';
import { createTextRenderer, type OutputFormat } from '../render/run-renderer.js';

export interface RunCommandOptions {
  prompt: string;
  cwd: string;
  model?: string;
  mode?: string;
  resume?: string;
  outputFormat: OutputFormat;
  sandbox: boolean;
  maxSteps?: number;
  /** After a plan-mode run that proposed a plan, approve it and execute it in agent mode. */
  planApprove?: boolean;
  /** Where a project MCP server not trusted yet is confirmed, when it is a terminal. */
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  color: boolean;
  env: Record<string, string | undefined>;
  signal?: AbortSignal;
}

/** `cairn "prompt"`: one headless run, streamed; the exit code says how it ended. */
export async function runPromptCommand(options: RunCommandOptions): Promise<number> {
  try {
    const model = options.model ?? (options.resume ? undefined : defaultModel(options.env));
    if (!model && !options.resume) {
      options.stderr.write(`cairn: ${noModelMessage}\n`);
      return 2;
    }
    const common = {
      ...(model ? { model } : {}),
      ...(options.maxSteps ? { maxSteps: options.maxSteps } : {}),
      ...(retryFromEnv(options.env) ? { retry: retryFromEnv(options.env) } : {}),
      local: {
        cwd: options.cwd,
        ...(options.sandbox ? { sandboxOptions: { enabled: true } } : {}),
        ...cliMcpLocalOptions({ cwd: options.cwd, env: options.env, stderr: options.stderr, ...(options.stdin ? { stdin: options.stdin } : {}) }),
        ...cliHookLocalOptions({ cwd: options.cwd, env: options.env, stderr: options.stderr, ...(options.stdin ? { stdin: options.stdin } : {}) }),
      },
    };
    const agent = options.resume
      ? await Agent.resume(options.resume, common)
      : await Agent.create({ ...common, ...(options.mode ? { mode: options.mode } : {}) });
    let result = await streamRun(agent, options.prompt, { ...(options.mode ? { mode: options.mode } : {}) }, options);
    if (result.plan && result.status === 'finished') {
      if (options.outputFormat === 'text') options.stdout.write(`\n${renderPlan(result.plan)}\n`);
      if (options.planApprove) {
        result = await streamRun(agent, 'The plan is approved. Implement it now.', { approvePlan: true, mode: 'agent' }, options);
      } else if (options.outputFormat === 'text') {
        options.stderr.write(`\n[plan proposed · execute it with: cairn --resume ${agent.agentId} --mode agent "go"]\n`);
      }
    }
    if (options.outputFormat === 'json') options.stdout.write(`${JSON.stringify({ ...jsonResult(result, agent.agentId), ...(result.plan ? { plan: result.plan } : {}) }, null, 2)}\n`);
    await agent.close();
    return reportEnd(result, options);
  } catch (error) {
    options.stderr.write(`${describeCliError(error)}\n`);
    return exitCodeFor(error);
  }
}

type StreamedResult = RunResult & { plan?: PlanData };
type PlanData = { name?: string; overview?: string; plan?: string; todos?: Array<{ id: string; content: string; dependencies?: string[] }> };

/** Send one message and print the run as it streams; resolves with the result and any plan it proposed. */
async function streamRun(agent: CairnAgent, prompt: string, sendOptions: SendOptions, options: RunCommandOptions): Promise<StreamedResult> {
  const renderer = createTextRenderer(options);
  let plan: PlanData | undefined;
  const run = await agent.send(prompt, {
    ...sendOptions,
    ...(options.signal ? { signal: options.signal } : {}),
    onDelta: ({ update }) => {
      if (update.type === 'plan-created') plan = update.plan as PlanData;
      if (options.outputFormat === 'text') renderer.onDelta(update);
    },
  });
  for await (const message of run.stream()) {
    if (options.outputFormat === 'stream-json') options.stdout.write(`${JSON.stringify(message)}\n`);
    else if (options.outputFormat === 'text') renderer.onMessage(message);
  }
  const result = await run.wait();
  renderer.finish();
  return { ...result, ...(plan ? { plan } : {}) };
}

/** A proposed plan as markdown: name, overview, the plan, and its todos with their dependencies. */
export function renderPlan(plan: PlanData): string {
  const todos = (plan.todos ?? []).map((todo) => `- [ ] ${todo.id}: ${todo.content}${todo.dependencies?.length ? ` (after ${todo.dependencies.join(', ')})` : ''}`);
  return [`# Plan: ${plan.name ?? 'untitled'}`, plan.overview ?? '', plan.plan ?? '', todos.length ? `## Todos\n${todos.join('\n')}` : ''].filter(Boolean).join('\n\n');
}

function jsonResult(result: RunResult, agentId: string) {
  return { agentId, runId: result.id, status: result.status, result: result.result ?? '', error: result.error, usage: result.usage, durationMs: result.durationMs, model: result.model?.id };
}

function reportEnd(result: RunResult, options: RunCommandOptions): number {
  if (result.status === 'finished') {
    if (options.outputFormat === 'text') options.stderr.write(`\n[agent ${result.agentId} · run ${result.id} · resume with --resume ${result.agentId}]\n`);
    return 0;
  }
  if (result.status === 'cancelled') return 130;
  if (options.outputFormat === 'text') options.stderr.write(`cairn: ${result.error?.message ?? 'the run failed'}\n`);
  return 1;
}

/** CAIRN_RETRY_MAX_ATTEMPTS caps model-call attempts (1 = no retry), e.g. for scripts that must fail fast. */
function retryFromEnv(env: Record<string, string | undefined>): { maxAttempts: number } | undefined {
  const attempts = Number(env.CAIRN_RETRY_MAX_ATTEMPTS);
  return Number.isInteger(attempts) && attempts >= 1 ? { maxAttempts: attempts } : undefined;
}
