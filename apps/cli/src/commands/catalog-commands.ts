import { Agent, Cairn, type ModelListItem } from '@cairn/sdk';

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
    const tokens = run.usage ? `${run.usage.inputTokens}/${run.usage.outputTokens} tokens` : 'no usage';
    options.stdout.write(`${run.id}  ${time(run.createdAt)}  ${run.status.padEnd(9)}  ${run.model.id}  ${tokens}${run.error ? `  ${run.error.message}` : ''}\n`);
  }
  return 0;
}

/** `cairn models`: the router and the catalog of every configured provider, as `Cairn.models.list()` returns them. */
export async function runModelsCommand(options: Output & { env?: Record<string, string | undefined> }): Promise<number> {
  const models = await Cairn.models.list(options.env ? { env: options.env } : {});
  if (options.json) {
    options.stdout.write(`${JSON.stringify(models, null, 2)}\n`);
    return 0;
  }
  if (models.length === 0) {
    options.stdout.write('No provider is configured. Set OPENAI_API_KEY, ANTHROPIC_API_KEY or GEMINI_API_KEY, or use --model ollama/<model> with a local Ollama server.\n');
    return 0;
  }
  for (const model of models) options.stdout.write(`${modelLine(model)}\n`);
  options.stdout.write('Pass an id or alias as --model. Parameter values and presets: cairn models --json.\n');
  return 0;
}

/** One model: id, name, context/tier/price from the catalog, parameters with their values, aliases. */
function modelLine(model: ModelListItem): string {
  const entry = Cairn.registry.catalogEntry(model.id);
  const facts = entry
    ? `${Math.round(entry.contextWindow / 1000)}k`.padEnd(7) + (entry.tier ?? '').padEnd(9) + (entry.pricing ? `$${entry.pricing.inputPerMillion}/$${entry.pricing.outputPerMillion} per M` : '').padEnd(18)
    : ''.padEnd(34);
  const parameters = (model.parameters ?? []).map((parameter) => `${parameter.id}=${parameter.values.map(({ value }) => value).join('|')}`).join(' ');
  const aliases = model.aliases?.length ? `  (also: ${model.aliases.join(', ')})` : '';
  return `${model.id.padEnd(40)}${model.displayName.padEnd(26)}${facts}${parameters}${aliases}`.trimEnd();
}
