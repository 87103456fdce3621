import type { Registry, ResolvedModel } from '../registry/registry.js';
import { ConfigurationError } from '../spec/errors/index.js';
import type { ModelSelection } from '../spec/provider/v1/index.js';
import type { AgentOptions } from './agent-options.js';

export function normalizeModelSelection(model: ModelSelection | string | undefined): ModelSelection {
  if (model === undefined || model === '') {
    throw new ConfigurationError('No model selected. Pass model (for example "openai/gpt-5.2", "anthropic/claude-sonnet-4-5" or "ollama/qwen3"), or set CAIRN_MODEL.');
  }
  return typeof model === 'string' ? { id: model } : model;
}

/** Resolve a selection to a model, validating its parameters against the catalog. */
export function resolveModelSelection(registry: Registry, selection: ModelSelection, options: AgentOptions): ResolvedModel {
  const resolved = registry.resolveModel(selection.id, {
    ...(selection.params ? { params: selection.params } : {}),
    ...(options.providers ? { providers: options.providers } : {}),
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    env: options.env ?? process.env,
  });
  validateParams(selection, resolved);
  return resolved;
}

function validateParams(selection: ModelSelection, resolved: ResolvedModel): void {
  if (!selection.params?.length) return;
  const known = resolved.catalog?.params ?? [];
  for (const param of selection.params) {
    const definition = known.find((entry) => entry.id === param.id);
    if (!definition) {
      if (!resolved.catalog) continue; // unknown models (local servers) take any parameter
      throw new ConfigurationError(`Model ${resolved.id} has no parameter "${param.id}". Its parameters: ${known.map((entry) => entry.id).join(', ') || 'none'}.`);
    }
    if (definition.values && !definition.values.includes(param.value)) {
      throw new ConfigurationError(`Parameter "${param.id}" of ${resolved.id} must be one of ${definition.values.map(String).join(', ')} (got ${String(param.value)}).`);
    }
    if (definition.type === 'number' && typeof param.value !== 'number') throw new ConfigurationError(`Parameter "${param.id}" of ${resolved.id} must be a number.`);
    if (definition.type === 'boolean' && typeof param.value !== 'boolean') throw new ConfigurationError(`Parameter "${param.id}" of ${resolved.id} must be true or false.`);
  }
}
