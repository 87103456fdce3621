import { ConfigurationError } from '../spec/errors/index.js';
import type { CatalogParameterDefinition, ModelParameterValue } from '../spec/provider/v1/index.js';

/** Parameters as models receive them (`LanguageModelV1CallOptions.params`): typed by the catalog. */
export type CallParams = Record<string, string | number | boolean>;

/**
 * A parameter value as the string `ModelParameterValue` says it is. Untyped callers (and agents
 * stored before values were strings) may pass a number or boolean: that is its string, unambiguously.
 */
export function parameterValueText(id: string, value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))) return String(value);
  throw new ConfigurationError(
    `Model parameter "${id}" has the value ${JSON.stringify(value) ?? String(value)}. Parameter values are strings, as Cairn.models.list() lists them, for example { id: "${id}", value: "true" }.`,
  );
}

/** The listed (string) form of a catalog parameter's values; booleans list "false" and "true". */
export function valueTexts(definition: CatalogParameterDefinition): string[] | undefined {
  if (definition.type === 'boolean') return ['false', 'true'];
  return definition.values?.map(String);
}

/**
 * The selection's params checked against the model's catalog parameters and parsed by their type
 * (`"true"` becomes `true` for a boolean, `"2048"` becomes 2048 for a number). A model without a
 * catalog entry (a local server's) takes any parameter, passed on as the string given.
 */
export function parseModelParams(params: ModelParameterValue[] | undefined, definitions: CatalogParameterDefinition[] | undefined, modelId: string): CallParams | undefined {
  if (!params?.length) return undefined;
  const parsed: CallParams = {};
  for (const param of params) {
    const value = parameterValueText(param.id, param.value);
    if (param.id in parsed) throw new ConfigurationError(`Model parameter "${param.id}" is given twice for ${modelId}. Pass each parameter once.`);
    if (!definitions) {
      parsed[param.id] = value;
      continue;
    }
    const definition = definitions.find((entry) => entry.id === param.id);
    if (!definition) {
      throw new ConfigurationError(`Model ${modelId} has no parameter "${param.id}". Its parameters: ${definitions.map((entry) => entry.id).join(', ') || 'none'} (see Cairn.models.list()).`);
    }
    parsed[param.id] = parseValue(definition, value, modelId);
  }
  return parsed;
}

function parseValue(definition: CatalogParameterDefinition, value: string, modelId: string): string | number | boolean {
  const allowed = valueTexts(definition);
  const index = allowed?.indexOf(value) ?? -1;
  if (allowed && index < 0) throw new ConfigurationError(`Parameter "${definition.id}" of ${modelId} must be one of ${allowed.join(', ')} (got ${value}).`);
  if (definition.type === 'boolean') return value === 'true';
  if (definition.type === 'number') {
    // Number('') and Number(' ') are 0, so the text itself must look like a number.
    const number = /^-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(value) ? Number(value) : Number.NaN;
    if (!Number.isFinite(number)) throw new ConfigurationError(`Parameter "${definition.id}" of ${modelId} must be a number, as a string (got ${value}).`);
    return number;
  }
  // An enum keeps the catalog's own value (a number stays a number).
  return definition.values?.[index] ?? value;
}
