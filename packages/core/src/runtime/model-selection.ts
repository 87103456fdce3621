import { optimizeForParameter } from '../registry/auto-router.js';
import { parameterValueText } from '../registry/model-params.js';
import type { Registry, ResolvedModel } from '../registry/registry.js';
import { ConfigurationError } from '../spec/errors/index.js';
import type { ModelParameterValue, ModelSelection } from '../spec/provider/v1/index.js';
import type { AgentOptions } from './agent-options.js';

const selectionKeys = new Set(['id', 'params']);
const exampleIds = '"openai/gpt-5.2", "claude-sonnet-4-5", "auto-smart" or "ollama/qwen3"';

/**
 * A selection in its one shape: `{ id, params? }` with string values. Accepts a bare id string,
 * and numbers or booleans as values from untyped callers (as their strings); rejects anything else.
 */
export function normalizeModelSelection(model: ModelSelection | string | undefined): ModelSelection {
  if (model === undefined || model === '') {
    throw new ConfigurationError(`No model selected. Pass model (for example ${exampleIds}; Cairn.models.list() lists them), or set CAIRN_MODEL.`);
  }
  if (typeof model === 'string') return { id: model };
  if (typeof model !== 'object' || model === null) throw new ConfigurationError(`model must be { id, params? } or a model id string (for example ${exampleIds}).`);
  const unknown = Object.keys(model).filter((key) => !selectionKeys.has(key));
  if (unknown.length) throw new ConfigurationError(`model has no field ${unknown.map((key) => `"${key}"`).join(', ')}: a model selection is { id, params?: [{ id, value }] }.`);
  if (typeof model.id !== 'string' || model.id === '') throw new ConfigurationError(`model.id must be a model id string (for example ${exampleIds}).`);
  if (model.params === undefined) return { id: model.id };
  if (!Array.isArray(model.params)) throw new ConfigurationError('model.params must be an array of { id, value } (for example [{ id: "optimize_for", value: "balanced" }]).');
  return { id: model.id, params: model.params.map(normalizeParameter) };
}

function normalizeParameter(param: unknown): ModelParameterValue {
  const candidate = param as Partial<ModelParameterValue> | null;
  if (typeof candidate !== 'object' || candidate === null || typeof candidate.id !== 'string' || candidate.id === '' || !('value' in candidate)) {
    throw new ConfigurationError(`Each of model.params must be { id, value } with a string id (got ${JSON.stringify(param) ?? String(param)}).`);
  }
  return { id: candidate.id, value: parameterValueText(candidate.id, candidate.value) };
}

/** Resolve a selection to a model; the registry checks its parameters against the catalog and parses them. */
export function resolveModelSelection(registry: Registry, selection: ModelSelection, options: AgentOptions): ResolvedModel {
  const normalized = normalizeModelSelection(selection);
  return registry.resolveModel(normalized.id, {
    ...(normalized.params ? { params: normalized.params } : {}),
    ...(options.providers ? { providers: options.providers } : {}),
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    env: options.env ?? process.env,
  });
}

/**
 * The selection a run actually used: the concrete `provider/model` the id resolved to (the router's
 * pick for `auto-smart`), with the requested params that reached the model (the router's own
 * `optimize_for` is left out, since the pick already reflects it).
 */
export function selectionOf(resolved: ResolvedModel, requested: ModelSelection): ModelSelection {
  const params = normalizeModelSelection(requested).params?.filter((param) => !(resolved.auto && param.id === optimizeForParameter.id));
  return { id: resolved.id, ...(params?.length ? { params } : {}) };
}
