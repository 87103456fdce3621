import { Agent, Cairn } from '@cairn/sdk';

interface Output {
  stdout: NodeJS.WritableStream;
  json: boolean;
}

const time = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 19);

/** `cairn agents`: the stored agents, newest first. */
export async function runAgentsCommand(options: Output & { cwd?: string; limit: number }): Promise<number> {
  const page = await Agent.list({ limit: options.limit, ...(options.cwd ? { cwd: options.cwd } : {}) });
  if (options.json) {
    options.stdout.write(`${JSON.stringify(page.items, null, 2)}\n`);
    return 0;
  }
  if (page.items.length === 0) options.stdout.write('No agents yet. Start one with: cairn "your request"\n');
  for (const agent of page.items) options.stdout.write(`${agent.agentId}  ${time(agent.updatedAt)}  ${agent.model.id}  ${agent.mode}  ${agent.cwd}\n`);
  return 0;
}

/** `cairn runs <agentId>`: the runs of one agent, newest first. */
export async function runRunsCommand(agentId: string, options: Output & { limit: number }): Promise<number> {
  const page = await Agent.listRuns(agentId, { limit: options.limit });
  if (options.json) {
    options.stdout.write(`${JSON.stringify(page.items.map((run) => run.toResult()), null, 2)}\n`);
    return 0;
  }
  for (const run of page.items) {
    const tokens = `${run.usage.inputTokens}/${run.usage.outputTokens} tokens`;
    options.stdout.write(`${run.id}  ${time(run.createdAt)}  ${run.status.padEnd(9)}  ${run.model}  ${tokens}${run.error ? `  ${run.error.message}` : ''}\n`);
  }
  return 0;
}

/** `cairn models`: the catalog of every configured provider. */
export async function runModelsCommand(options: Output): Promise<number> {
  const models = await Cairn.models.list();
  if (options.json) {
    options.stdout.write(`${JSON.stringify(models, null, 2)}\n`);
    return 0;
  }
  if (models.length === 0) {
    options.stdout.write('No provider is configured. Set OPENAI_API_KEY, ANTHROPIC_API_KEY or GEMINI_API_KEY, or use --model ollama/<model> with a local Ollama server.\n');
    return 0;
  }
  for (const model of models) {
    const price = model.pricing ? `$${model.pricing.inputPerMillion}/$${model.pricing.outputPerMillion} per M` : '';
    options.stdout.write(`${model.provider}/${model.id}`.padEnd(44) + `${String(Math.round(model.contextWindow / 1000))}k`.padEnd(7) + `${(model.tier ?? '').padEnd(9)}${price}\n`);
  }
  return 0;
}
