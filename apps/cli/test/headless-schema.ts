// The message shapes Claude Code documents for `claude -p --output-format json|stream-json` (its
// Agent SDK's SDKSystemMessage, SDKAssistantMessage, SDKUserMessage and SDKResultMessage), written as
// a small validator so the tests check our output against them, not against a snapshot of itself.
// Each check returns the problems it found: [] means the value fits.

type Json = Record<string, unknown>;
type Check = (value: unknown, path: string) => string[];

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const string: Check = (value, path) => (typeof value === 'string' ? [] : [`${path} should be a string, is ${JSON.stringify(value)}`]);
const boolean: Check = (value, path) => (typeof value === 'boolean' ? [] : [`${path} should be a boolean`]);
const count: Check = (value, path) => (Number.isInteger(value) && (value as number) >= 0 ? [] : [`${path} should be a whole number >= 0, is ${JSON.stringify(value)}`]);
const number: Check = (value, path) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? [] : [`${path} should be a number >= 0`]);
const literal = (...allowed: unknown[]): Check => (value, path) => (allowed.includes(value) ? [] : [`${path} should be one of ${JSON.stringify(allowed)}, is ${JSON.stringify(value)}`]);
const arrayOf = (item: Check): Check => (value, path) => (Array.isArray(value) ? value.flatMap((entry, index) => item(entry, `${path}[${index}]`)) : [`${path} should be an array`]);
const nullable = (check: Check): Check => (value, path) => (value === null ? [] : check(value, path));
const any: Check = () => [];

function shape(fields: Record<string, Check>): Check {
  return (value, path) => {
    if (!isObject(value)) return [`${path} should be an object`];
    return Object.entries(fields).flatMap(([key, check]) => (key in value ? check(value[key], `${path}.${key}`) : [`${path}.${key} is missing`]));
  };
}

const usage = shape({ input_tokens: count, output_tokens: count, cache_read_input_tokens: count, cache_creation_input_tokens: count });

const contentBlock: Check = (value, path) => {
  if (!isObject(value)) return [`${path} should be an object`];
  if (value.type === 'text') return shape({ text: string })(value, path);
  if (value.type === 'tool_use') return shape({ id: string, name: string, input: any })(value, path);
  if (value.type === 'thinking') return shape({ thinking: string })(value, path);
  return [`${path}.type should be text, tool_use or thinking, is ${JSON.stringify(value.type)}`];
};

export const systemInit = shape({
  type: literal('system'),
  subtype: literal('init'),
  session_id: string,
  cwd: string,
  model: string,
  tools: arrayOf(string),
  permission_mode: literal('default', 'acceptEdits', 'bypassPermissions', 'plan', 'dontAsk'),
  uuid: string,
});

export const assistantMessage = shape({
  type: literal('assistant'),
  message: shape({ id: string, type: literal('message'), role: literal('assistant'), model: string, content: arrayOf(contentBlock), stop_reason: any, usage }),
  parent_tool_use_id: nullable(string),
  session_id: string,
  uuid: string,
});

export const toolResultMessage = shape({
  type: literal('user'),
  message: shape({ role: literal('user'), content: arrayOf(shape({ type: literal('tool_result'), tool_use_id: string, content: string, is_error: boolean })) }),
  parent_tool_use_id: nullable(string),
  session_id: string,
  uuid: string,
});

export const resultMessage: Check = (value, path) => {
  const problems = shape({
    type: literal('result'),
    subtype: literal('success', 'error_max_turns', 'error_during_execution'),
    is_error: boolean,
    result: string,
    session_id: string,
    num_turns: count,
    duration_ms: count,
    duration_api_ms: count,
    total_cost_usd: number,
    usage,
    permission_denials: arrayOf(shape({ tool_name: string, tool_use_id: string, tool_input: any })),
    uuid: string,
  })(value, path);
  if (isObject(value) && value.subtype !== 'success' && value.is_error !== true) problems.push(`${path}.is_error should be true for ${String(value.subtype)}`);
  if (isObject(value) && value.is_error === true && 'errors' in value) problems.push(...arrayOf(string)(value.errors, `${path}.errors`));
  return problems;
};

/** The documented shape of one stream-json line, chosen by its type (other system subtypes pass). */
export function streamLineProblems(line: unknown, path: string): string[] {
  if (!isObject(line)) return [`${path} should be an object`];
  if (line.type === 'system') return line.subtype === 'init' ? systemInit(line, path) : shape({ subtype: string, session_id: string, uuid: string })(line, path);
  if (line.type === 'assistant') return assistantMessage(line, path);
  if (line.type === 'user') return toolResultMessage(line, path);
  if (line.type === 'result') return resultMessage(line, path);
  return [`${path}.type ${JSON.stringify(line.type)} is not a documented stream-json message type`];
}

// Values whose keys are data (a tool's arguments, a plan), not the message format.
const dataKeys = new Set(['input', 'tool_input', 'plan']);

/** Every key of the message format in snake_case (Claude Code's one casing). */
export function camelCaseKeys(value: unknown, path = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((entry, index) => camelCaseKeys(entry, `${path}[${index}]`));
  if (!isObject(value)) return [];
  return Object.entries(value).flatMap(([key, entry]) => [
    ...(/^[a-z][a-z0-9_]*$/.test(key) ? [] : [`${path}.${key}`]),
    ...(dataKeys.has(key) ? [] : camelCaseKeys(entry, `${path}.${key}`)),
  ]);
}
