import { ConfigurationError } from '../spec/errors/index.js';
import type { EmbeddingModelV1 } from '../spec/embedding-model/v1/index.js';
import type { ProviderSettings } from '../spec/provider/v1/index.js';
import type { Registry } from './registry.js';

/**
 * How an embedding model is named in options and settings files: `provider/model`
 * (`openai/text-embedding-3-small`, `google/gemini-embedding-001`, `ollama/nomic-embed-text`), the
 * same with the server's base URL and key, or a ready model object (SDK only).
 */
export type EmbeddingSetting = string | EmbeddingSettingObject | EmbeddingModelV1;

export interface EmbeddingSettingObject {
  model: string;
  /** An OpenAI-compatible server (`http://localhost:8080/v1`), a Gemini proxy, or a remote Ollama (`http://host:11434/v1`). */
  baseURL?: string;
  apiKey?: string;
}

export interface ResolveEmbeddingOptions {
  baseURL?: string;
  apiKey?: string;
  /** Per-provider settings (`AgentOptions.providers`); `baseURL` / `apiKey` above win over them. */
  providers?: Record<string, ProviderSettings | undefined>;
  env?: Record<string, string | undefined>;
}

const example = '"openai/text-embedding-3-small", "google/gemini-embedding-001" or "ollama/nomic-embed-text"';

export function isEmbeddingModel(value: unknown): value is EmbeddingModelV1 {
  return typeof value === 'object' && value !== null && (value as EmbeddingModelV1).specificationVersion === 'v1' && typeof (value as EmbeddingModelV1).doEmbed === 'function';
}

/** Check a value from options or a settings file; `where` names it in the error (`index.embeddings in .cairn/settings.json`). */
export function parseEmbeddingSetting(value: unknown, where: string): EmbeddingSetting {
  if (isEmbeddingModel(value)) return value;
  if (typeof value === 'string') {
    if (!/^[^/\s]+\/\S+$/.test(value.trim())) throw new ConfigurationError(`${where} must be "provider/model", e.g. ${example}; got ${JSON.stringify(value)}.`, { code: 'invalid_setting' });
    return value.trim();
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const { model, baseURL, apiKey, ...rest } = value as Record<string, unknown>;
    const unknown = Object.keys(rest);
    if (unknown.length) throw new ConfigurationError(`${where} has unknown field(s) ${unknown.join(', ')}: it takes model, baseURL and apiKey.`, { code: 'invalid_setting' });
    const parsed: EmbeddingSettingObject = { model: parseEmbeddingSetting(model, `${where}.model`) as string };
    for (const [key, field] of [['baseURL', baseURL], ['apiKey', apiKey]] as const) {
      if (field === undefined) continue;
      if (typeof field !== 'string' || !field.trim()) throw new ConfigurationError(`${where}.${key} must be a non-empty string.`, { code: 'invalid_setting' });
      parsed[key] = field.trim();
    }
    if (parsed.baseURL && !/^https?:\/\//.test(parsed.baseURL)) throw new ConfigurationError(`${where}.baseURL must be an http(s) URL, e.g. http://localhost:11434/v1; got ${JSON.stringify(parsed.baseURL)}.`, { code: 'invalid_setting' });
    return parsed;
  }
  throw new ConfigurationError(`${where} must be "provider/model" (e.g. ${example}) or { model, baseURL?, apiKey? }.`, { code: 'invalid_setting' });
}

/**
 * The embedding model a setting names, from the registry's providers. A malformed id, an unknown
 * provider, a provider without embeddings and a missing key are ConfigurationErrors that say what to do.
 */
export function resolveEmbeddingSetting(registry: Registry, setting: EmbeddingSetting, options: ResolveEmbeddingOptions = {}): EmbeddingModelV1 {
  if (isEmbeddingModel(setting)) return setting;
  const parsed = parseEmbeddingSetting(setting, 'The embedding model');
  const spec = typeof parsed === 'string' ? { model: parsed } : (parsed as EmbeddingSettingObject);
  const providerId = spec.model.slice(0, spec.model.indexOf('/'));
  const provider = registry.provider(providerId);
  if (provider && !provider.embeddingModel) {
    const able = registry.providers().filter((candidate) => candidate.embeddingModel).map((candidate) => candidate.id);
    throw new ConfigurationError(`Provider "${providerId}" has no embedding models; use one of ${able.join(', ') || 'none registered'} (e.g. ${example}).`, { code: 'invalid_setting' });
  }
  const baseURL = spec.baseURL ?? options.baseURL;
  const apiKey = spec.apiKey ?? options.apiKey;
  const settings = { ...(options.providers?.[providerId] ?? {}), ...(baseURL ? { baseURL } : {}), ...(apiKey ? { apiKey } : {}) };
  return registry.resolveEmbeddingModel(spec.model, { providers: { ...options.providers, [providerId]: settings }, ...(options.env ? { env: options.env } : {}) });
}
