import { Cairn } from '@cairn/sdk';

/**
 * Each provider's default models, best first: the first one not past its end of life (the
 * catalog's `providerHints.endOfLife`) is the default, so a retired model never stays the default
 * (claude-sonnet-4-5 reached its end of life on 2026-11-30).
 */
const preferred: Array<{ keys: string[]; models: string[] }> = [
  { keys: ['ANTHROPIC_API_KEY'], models: ['anthropic/claude-sonnet-4-5', 'anthropic/claude-opus-4-5', 'anthropic/claude-haiku-4-5'] },
  { keys: ['OPENAI_API_KEY'], models: ['openai/gpt-5.2', 'openai/gpt-5.1', 'openai/gpt-5-mini'] },
  { keys: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'], models: ['google/gemini-2.5-pro', 'google/gemini-2.5-flash'] },
];

/** The catalog's end-of-life date of a model id or alias, if it has one. */
function catalogEndOfLife(id: string): string | undefined {
  const endOfLife = Cairn.registry.catalogEntry(id)?.providerHints?.endOfLife;
  return typeof endOfLife === 'string' ? endOfLife : undefined;
}

/** Whether the model is still served on `now`: no end-of-life date, or one still ahead. */
export function isCurrentModel(id: string, now = new Date(), endOfLife: (id: string) => string | undefined = catalogEndOfLife): boolean {
  const date = endOfLife(id);
  return date === undefined || now.toISOString().slice(0, 10) <= date;
}

/**
 * The model when --model is not given: CAIRN_MODEL, else a current model of the first provider
 * whose key is set, so `cairn "..."` works as soon as one key is in the environment.
 */
export function defaultModel(env: Record<string, string | undefined>, now = new Date(), endOfLife: (id: string) => string | undefined = catalogEndOfLife): string | undefined {
  if (env.CAIRN_MODEL) return env.CAIRN_MODEL;
  const provider = preferred.find(({ keys }) => keys.some((key) => env[key]));
  if (!provider) return undefined;
  return provider.models.find((id) => isCurrentModel(id, now, endOfLife)) ?? provider.models.at(-1);
}

export const noModelMessage =
  'No model selected. Pass --model (for example --model openai/gpt-5.2, --model anthropic/claude-opus-4-5, or --model ollama/qwen3 for a local Ollama server), ' +
  'or set CAIRN_MODEL. Any OpenAI-compatible server works with --model openai/<model> and OPENAI_BASE_URL=http://host:port/v1.';
