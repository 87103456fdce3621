/**
 * What the configured model servers really serve, asked over HTTP: an OpenAI-compatible server's
 * `GET <OPENAI_BASE_URL>/models`, and Ollama's `GET /api/tags` (its own list, with local model
 * names) or else its OpenAI-compatible `/v1/models`. The built-in catalogs only know published
 * models; a local or proxy server serves whatever was loaded into it.
 */

export interface ServedModels {
  /** The provider prefix a listed model takes in --model: `openai/<id>`, `ollama/<name>`. */
  provider: 'openai' | 'ollama';
  url: string;
  /** Where the address came from: the variable, or "default" for Ollama's usual address. */
  source: string;
  /** The ids as --model takes them, or undefined when the server did not answer. */
  models?: string[];
  /** Why there is no list: no answer, an HTTP error, a body that is not a model list. */
  problem?: string;
}

const ollamaDefaultURL = 'http://localhost:11434';

/** Ask every configured server at once; each gets `timeoutMs`. */
export async function listServedModels(env: Record<string, string | undefined>, timeoutMs: number): Promise<ServedModels[]> {
  const asks: Array<Promise<ServedModels | undefined>> = [];
  const openaiBase = env.OPENAI_BASE_URL?.trim();
  if (openaiBase) asks.push(askOpenAICompatible(withoutSlash(openaiBase), env.OPENAI_API_KEY, timeoutMs));
  const ollamaBase = env.OLLAMA_BASE_URL?.trim();
  asks.push(askOllama(withoutSlash(ollamaBase || ollamaDefaultURL).replace(/\/v1$/, ''), ollamaBase ? 'OLLAMA_BASE_URL' : 'default', timeoutMs));
  const answers = await Promise.all(asks);
  // Ollama at its default address is asked in passing: when nothing listens there, say nothing.
  return answers.filter((answer): answer is ServedModels => answer !== undefined && !(answer.source === 'default' && answer.models === undefined));
}

async function askOpenAICompatible(base: string, apiKey: string | undefined, timeoutMs: number): Promise<ServedModels> {
  const served: ServedModels = { provider: 'openai', url: base, source: 'OPENAI_BASE_URL' };
  const answer = await getJson(`${base}/models`, timeoutMs, apiKey ? { authorization: `Bearer ${apiKey}` } : {});
  if ('problem' in answer) return { ...served, problem: answer.problem };
  const ids = idsOf(answer.body, 'data', 'id');
  return ids ? { ...served, models: ids.map((id) => `openai/${id}`) } : { ...served, problem: 'the answer is not a model list ({ data: [{ id }] })' };
}

async function askOllama(root: string, source: string, timeoutMs: number): Promise<ServedModels> {
  const served: ServedModels = { provider: 'ollama', url: root, source };
  const tags = await getJson(`${root}/api/tags`, timeoutMs);
  const names = 'body' in tags ? idsOf(tags.body, 'models', 'name') : undefined;
  if (names) return { ...served, models: names.map((name) => `ollama/${name}`) };
  // A server at OLLAMA_BASE_URL that only speaks the OpenAI API (a proxy in front of Ollama).
  const openai = 'problem' in tags && tags.unreachable ? tags : await getJson(`${root}/v1/models`, timeoutMs);
  const ids = 'body' in openai ? idsOf(openai.body, 'data', 'id') : undefined;
  if (ids) return { ...served, models: ids.map((id) => `ollama/${id}`) };
  return { ...served, problem: 'problem' in openai ? openai.problem : 'the answer is not a model list' };
}

type JsonAnswer = { body: unknown } | { problem: string; unreachable: boolean };

async function getJson(url: string, timeoutMs: number, headers: Record<string, string> = {}): Promise<JsonAnswer> {
  try {
    const response = await fetch(url, { headers: { accept: 'application/json', ...headers }, signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) return { problem: `HTTP ${response.status} from ${url}`, unreachable: false };
    return { body: await response.json() };
  } catch (error) {
    return { problem: transportProblem(error, timeoutMs), unreachable: true };
  }
}

function transportProblem(error: unknown, timeoutMs: number): string {
  if ((error as { name?: string }).name === 'TimeoutError') return `no answer within ${timeoutMs / 1000} s`;
  const code = (error as { cause?: { code?: string } }).cause?.code;
  return code ? `no answer (${code})` : `no answer (${(error as Error).message})`;
}

function idsOf(body: unknown, listKey: string, idKey: string): string[] | undefined {
  const list = (body as Record<string, unknown> | null)?.[listKey];
  if (!Array.isArray(list)) return undefined;
  return list.map((entry) => (entry as Record<string, unknown>)?.[idKey]).filter((id): id is string => typeof id === 'string').sort();
}

const withoutSlash = (url: string) => url.replace(/\/+$/, '');
