import { Agent, Cairn, type ModelListItem } from '@cairn/sdk';
import { describeCliError, exitCodeFor } from '../cli-errors.js';
import { listServedModels, type ServedModels } from './server-models.js';

interface Output {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  json: boolean;
}

/** A catalog command's SDK errors as the CLI's one line and exit code. */
async function reported(options: Output, command: () => Promise<number>): Promise<number> {
  try {
    return await command();
  } catch (error) {
    options.stderr.write(`${describeCliError(error)}\n`);
    return exitCodeFor(error);
  }
}

const time = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 19);

/** `cairn agents`: the stored agents, newest first. */
export function runAgentsCommand(options: Output & { cwd?: string; limit: number }): Promise<number> {
  return reported(options, () => listAgents(options));
}

async function listAgents(options: Output & { cwd?: string; limit: number }): Promise<number> {
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
export function runRunsCommand(agentId: string, options: Output & { limit: number }): Promise<number> {
  return reported(options, () => listRuns(agentId, options));
}

async function listRuns(agentId: string, options: Output & { limit: number }): Promise<number> {
  // The store lists no runs for an id it does not know: ask for the agent first, so a typo is an error.
  await Agent.get(agentId);
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

/** How long `cairn models` waits for each configured server's model list. */
const serverTimeoutMs = 2_000;

/**
 * `cairn models`: the router and the catalog of every configured provider, as `Cairn.models.list()`
 * returns them, then what the configured servers really serve (see server-models.ts).
 */
export function runModelsCommand(options: Output & { env?: Record<string, string | undefined>; servers?: boolean }): Promise<number> {
  return reported(options, () => listModels(options));
}

async function listModels(options: Output & { env?: Record<string, string | undefined>; servers?: boolean }): Promise<number> {
  const env = options.env ?? process.env;
  const [models, served] = await Promise.all([Cairn.models.list(options.env ? { env: options.env } : {}), options.servers === false ? [] : listServedModels(env, serverTimeoutMs)]);
  if (options.json) {
    for (const server of served) if (server.problem) options.stderr.write(`${serverProblemLine(server)}\n`);
    options.stdout.write(`${JSON.stringify([...models, ...served.flatMap(servedItems)], null, 2)}\n`);
    return 0;
  }
  if (models.length === 0 && !served.some((server) => server.models?.length)) {
    options.stdout.write('No provider is configured. Set OPENAI_API_KEY, ANTHROPIC_API_KEY or GEMINI_API_KEY, or use --model ollama/<model> with a local Ollama server.\n');
    for (const server of served) if (server.problem) options.stdout.write(`${serverProblemLine(server)}\n`);
    return 0;
  }
  for (const model of models) options.stdout.write(`${modelLine(model)}\n`);
  for (const server of served) options.stdout.write(`${serverSection(server)}\n`);
  options.stdout.write('Pass an id or alias as --model. Parameter values and presets: cairn models --json.\n');
  return 0;
}

/** A server's models in the JSON list: the id --model takes, and where it is served. */
function servedItems(server: ServedModels) {
  return (server.models ?? []).map((id) => ({ id, displayName: id.slice(server.provider.length + 1), servedBy: { url: server.url, source: server.source } }));
}

function serverSection(server: ServedModels): string {
  if (server.problem) return serverProblemLine(server);
  const heading = `Served by ${server.url} (${server.source === 'default' ? "Ollama's default address" : server.source}):`;
  return [heading, ...(server.models?.length ? server.models.map((id) => `  ${id}`) : ['  (no models)'])].join('\n');
}

function serverProblemLine(server: ServedModels): string {
  return `${server.url} (${server.source}) did not list its models: ${server.problem}. Check that the server runs, or fix ${server.source === 'default' ? 'OLLAMA_BASE_URL' : server.source}.`;
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
