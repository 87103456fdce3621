// Checks of single config fields. Each returns what is wrong and what to write instead, or undefined.

export type JsonObject = Record<string, unknown>;

export function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `an array`, `null`, `a number`: for "must be X, not Y" messages. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

export function nonEmptyStringProblem(field: string, value: unknown, example: string): string | undefined {
  if (typeof value === 'string' && value.trim() !== '') return undefined;
  return `"${field}" must be a non-empty string (e.g. ${example}), not ${typeof value === 'string' ? 'an empty one' : describeValue(value)}`;
}

export function stringArrayProblem(field: string, value: unknown, example: string): string | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) return `"${field}" must be an array of strings (e.g. ${example}), not ${describeValue(value)}`;
  const index = value.findIndex((item) => typeof item !== 'string');
  if (index < 0) return undefined;
  return `"${field}[${index}]" must be a string, not ${describeValue(value[index])} (write numbers and flags in quotes)`;
}

export function stringRecordProblem(field: string, value: unknown, example: string): string | undefined {
  if (value === undefined) return undefined;
  if (!isPlainObject(value)) return `"${field}" must be an object of strings (e.g. ${example}), not ${describeValue(value)}`;
  for (const [key, item] of Object.entries(value)) {
    if (typeof item !== 'string') return `"${field}.${key}" must be a string, not ${describeValue(item)} (write numbers and booleans in quotes)`;
  }
  return undefined;
}

export function positiveMillisecondsProblem(field: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return undefined;
  return `"${field}" must be a positive number of milliseconds (e.g. 60000), not ${typeof value === 'number' ? value : describeValue(value)}`;
}

/** Names the first field that is not in `allowed`, saying where it belongs when the other transport takes it. */
export function unknownFieldProblem(config: JsonObject, allowed: readonly string[], other: { fields: readonly string[]; kind: string }): string | undefined {
  const field = Object.keys(config).find((key) => !allowed.includes(key));
  if (field === undefined) return undefined;
  const takes = allowed.join(', ');
  if (other.fields.includes(field)) return `"${field}" is only for ${other.kind} servers; this server takes ${takes}`;
  return `unknown field "${field}"; this server takes ${takes}`;
}
