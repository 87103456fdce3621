/**
 * The model when --model is not given: CAIRN_MODEL, else a sensible model of the first provider
 * whose key is set, so `cairn "..."` works as soon as one key is in the environment.
 */
export function defaultModel(env: Record<string, string | undefined>): string | undefined {
  if (env.CAIRN_MODEL) return env.CAIRN_MODEL;
  if (env.ANTHROPIC_API_KEY) return 'anthropic/claude-sonnet-4-5';
  if (env.OPENAI_API_KEY) return 'openai/gpt-5.2';
  if (env.GEMINI_API_KEY || env.GOOGLE_API_KEY) return 'google/gemini-2.5-pro';
  return undefined;
}

export const noModelMessage =
  'No model selected. Pass --model (for example --model openai/gpt-5.2, --model anthropic/claude-sonnet-4-5, or --model ollama/qwen3 for a local Ollama server), ' +
  'or set CAIRN_MODEL. Any OpenAI-compatible server works with --model openai/<model> and OPENAI_BASE_URL=http://host:port/v1.';
