import type { CairnAgent, InteractionUpdate, SendOptions } from '@cairn/sdk';
import type { FinishedRun } from '../render/result-message.js';
import { createTextRenderer, type OutputFormat } from '../render/run-renderer.js';
import { type PlanData, RunTally } from '../render/run-tally.js';
import type { createStreamJson } from '../render/stream-json.js';

/** Where and how the runs of a headless command are printed. */
export interface RunOutput {
  outputFormat: OutputFormat;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  color: boolean;
  signal?: AbortSignal;
  /** The agent's stream-json translator, with `--output-format stream-json`. */
  streamJson?: ReturnType<typeof createStreamJson>;
}

/** With `json`, stdout holds only the result: what a person should still see goes to stderr as text. */
const stderrNotices = new Set<InteractionUpdate['type']>(['warning', 'retry', 'mode-changed']);

/**
 * One prompt: its run, and with `planApprove` the execution of a plan it proposed. In text mode the
 * plan is printed with how to execute it later.
 */
export async function promptRuns(agent: CairnAgent, prompt: string, options: { mode?: string; planApprove?: boolean; force?: boolean }, output: RunOutput): Promise<FinishedRun[]> {
  // --force: take the agent over from a live process (its running run is cancelled).
  const first = await streamRun(agent, prompt, { ...(options.mode ? { mode: options.mode } : {}), ...(options.force ? { local: { force: true } } : {}) }, output);
  const runs = [first];
  if (!first.tally.plan || first.result.status !== 'finished') return runs;
  if (output.outputFormat === 'text') output.stdout.write(`\n${renderPlan(first.tally.plan)}\n`);
  if (options.planApprove) {
    runs.push(await streamRun(agent, 'The plan is approved. Implement it now.', { approvePlan: true, mode: 'agent' }, output));
  } else if (output.outputFormat === 'text') {
    output.stderr.write(`\n[plan proposed · execute it with: cairn --resume ${agent.agentId} --mode agent "go"]\n`);
  }
  return runs;
}

/** Send one message and print the run as it streams; resolves with the result and what its events told. */
async function streamRun(agent: CairnAgent, prompt: string, sendOptions: SendOptions, output: RunOutput): Promise<FinishedRun> {
  const text = createTextRenderer(output);
  const tally = new RunTally();
  const run = await agent.send(prompt, {
    ...sendOptions,
    ...(output.signal ? { signal: output.signal } : {}),
    onDelta: ({ update }) => {
      tally.onDelta(update);
      if (output.outputFormat === 'text' || (output.outputFormat === 'json' && stderrNotices.has(update.type))) text.onDelta(update);
      output.streamJson?.onDelta(update);
    },
  });
  for await (const message of run.stream()) {
    tally.onMessage(message);
    if (output.outputFormat === 'text') text.onMessage(message);
    output.streamJson?.onMessage(message);
  }
  const result = await run.wait();
  text.finish();
  output.streamJson?.finish();
  const costUsd = output.outputFormat === 'text' ? 0 : await runCostUsd(agent, result.id);
  return { result, tally, costUsd };
}

/** The run's charged cost in dollars, 0 when its model has no known prices (a local server, an unknown model). */
async function runCostUsd(agent: CairnAgent, runId: string): Promise<number> {
  const usage = await agent.getUsage({ runId });
  return (usage.cost?.chargedCents ?? 0) / 100;
}

/** A proposed plan as markdown: name, overview, the plan, and its todos with their dependencies. */
export function renderPlan(plan: PlanData): string {
  const todos = (plan.todos ?? []).map((todo) => `- [ ] ${todo.id}: ${todo.content}${todo.dependencies?.length ? ` (after ${todo.dependencies.join(', ')})` : ''}`);
  return [`# Plan: ${plan.name ?? 'untitled'}`, plan.overview ?? '', plan.plan ?? '', todos.length ? `## Todos\n${todos.join('\n')}` : ''].filter(Boolean).join('\n\n');
}
