import { type DoctorCheck, fail, ok, warn } from './doctor-check.js';

type Env = Record<string, string | undefined>;

/** A provider as the environment configures it: the key variables and the base URL variables, in the SDK's order. */
interface ProviderSetup {
  name: string;
  keyVars: string[];
  baseVars: string[];
  defaultBase: string;
  /** The listing endpoint below the base URL, asked to see whether the server answers. */
  modelsPath: string;
  headers: (key: string) => Record<string, string>;
}

const setups: ProviderSetup[] = [
  { name: 'openai', keyVars: ['OPENAI_API_KEY'], baseVars: ['OPENAI_BASE_URL'], defaultBase: 'https://api.openai.com/v1', modelsPath: '/models', headers: (key) => ({ authorization: `Bearer ${key}` }) },
  { name: 'anthropic', keyVars: ['ANTHROPIC_API_KEY'], baseVars: ['ANTHROPIC_BASE_URL'], defaultBase: 'https://api.anthropic.com', modelsPath: '/v1/models', headers: (key) => ({ 'x-api-key': key, 'anthropic-version': '2023-06-01' }) },
  { name: 'google', keyVars: ['GOOGLE_API_KEY', 'GEMINI_API_KEY'], baseVars: ['GEMINI_BASE_URL', 'GOOGLE_GEMINI_BASE_URL'], defaultBase: 'https://generativelanguage.googleapis.com', modelsPath: '/v1beta/models', headers: (key) => ({ 'x-goog-api-key': key }) },
  { name: 'ollama', keyVars: [], baseVars: ['OLLAMA_BASE_URL'], defaultBase: 'http://localhost:11434/v1', modelsPath: '/models', headers: () => ({}) },
];

const firstSet = (env: Env, names: string[]) => names.find((name) => env[name]?.trim());

/**
 * One line per provider the environment configures (a key or a base URL; Ollama also when its default
 * address answers). Keys are named, never printed; each configured server is asked for its model list
 * with a short timeout, so "configured" also means "answers".
 */
export async function providerChecks(env: Env, timeoutMs = 2000): Promise<DoctorCheck[]> {
  const results = await Promise.all(setups.map((setup) => providerCheck(setup, env, timeoutMs)));
  const checks = results.filter((check): check is DoctorCheck => check !== undefined);
  if (checks.length > 0) return checks;
  return [fail('providers', 'no provider is configured', 'set OPENAI_API_KEY, ANTHROPIC_API_KEY or GEMINI_API_KEY, OPENAI_BASE_URL for an OpenAI-compatible server, or start Ollama')];
}

async function providerCheck(setup: ProviderSetup, env: Env, timeoutMs: number): Promise<DoctorCheck | undefined> {
  const keyVar = firstSet(env, setup.keyVars);
  const baseVar = firstSet(env, setup.baseVars);
  const isOllama = setup.keyVars.length === 0;
  if (!keyVar && !baseVar && !isOllama) return undefined;
  const base = (baseVar ? env[baseVar]!.trim() : setup.defaultBase).replace(/\/+$/, '');
  const where = baseVar ? `${base} (${baseVar})` : base;
  const keyNote = keyVar ? `${keyVar} is set` : isOllama ? 'no key needed' : 'no key (fine for a local server)';
  const answer = await probe(`${base}${setup.modelsPath}`, keyVar ? setup.headers(env[keyVar]!.trim()) : {}, timeoutMs);
  const name = `provider ${setup.name}`;
  if (isOllama && !baseVar && answer.error) return undefined; // not running and not asked for: not configured
  if (answer.error) return fail(name, `${where} does not answer: ${answer.error}`, `start the server or fix ${baseVar ?? setup.baseVars[0]}`);
  if (answer.status === 401 || answer.status === 403) return fail(name, `${where} refused the key (HTTP ${answer.status})`, `check ${keyVar ?? setup.keyVars[0]}`);
  if (answer.status !== undefined && answer.status >= 500) return warn(name, `${where} answered HTTP ${answer.status}; ${keyNote}`, 'the server has a problem; try again later');
  return ok(name, `${where} answers; ${keyNote}`);
}

async function probe(url: string, headers: Record<string, string>, timeoutMs: number): Promise<{ status?: number; error?: string }> {
  try {
    const response = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return { status: response.status };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    if ((error as Error).name === 'TimeoutError') return { error: `no answer within ${timeoutMs / 1000} s` };
    return { error: cause?.code ?? cause?.message ?? (error as Error).message };
  }
}
