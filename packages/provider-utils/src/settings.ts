import { ConfigurationError } from '@cairn/core/errors';
import type { ProviderContext } from '@cairn/core/spec';

/**
 * Where a provider setting can come from, most specific first: the agent's `providers.<id>`
 * settings (`AgentOptions.providers`), the provider factory's (`createOpenAI({...})`), then the
 * environment. The more specific setting wins: an agent that names its own key or base URL gets
 * it, whatever the shared provider instance was built with.
 */
export interface SettingLayers {
  providerId: string;
  agent: Readonly<Record<string, unknown>>;
  factory: Readonly<Record<string, unknown>>;
  env: Readonly<Record<string, string | undefined>>;
}

/** The context a model gets when it is built without one (outside the Cairn runtime): the process environment. */
export function defaultProviderContext(): ProviderContext {
  return { settings: {}, env: typeof process === 'undefined' ? {} : process.env };
}

export function settingLayers(providerId: string, factory: object, context: ProviderContext | undefined): SettingLayers {
  const resolved = context ?? defaultProviderContext();
  return { providerId, agent: resolved.settings ?? {}, factory: factory as Record<string, unknown>, env: resolved.env ?? {} };
}

/**
 * Reads one layer's value. `undefined` means "not set here, ask the next layer"; a value of the
 * wrong type throws, naming where it came from (`source`).
 */
export type SettingReader<Value> = (value: unknown, source: string) => Value | undefined;

/** Unset: absent, null, or an empty string (a blank variable must not hide the next layer). */
function isUnset(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

function typeError(source: string, expected: string, value: unknown): ConfigurationError {
  const got = Array.isArray(value) ? 'an array' : typeof value === 'string' ? JSON.stringify(value) : typeof value;
  return new ConfigurationError(`${source} must be ${expected}, got ${got}.`, { code: 'invalid_setting' });
}

export const asString: SettingReader<string> = (value, source) => {
  if (isUnset(value)) return undefined;
  if (typeof value !== 'string') throw typeError(source, 'a string', value);
  return value;
};

export const asBoolean: SettingReader<boolean> = (value, source) => {
  if (isUnset(value)) return undefined;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw typeError(source, 'true or false', value);
};

export const asNumber: SettingReader<number> = (value, source) => {
  if (isUnset(value)) return undefined;
  const number = typeof value === 'string' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isFinite(number)) throw typeError(source, 'a number', value);
  return number;
};

/** A reader for one of a fixed set of strings (`'chat' | 'responses'`). */
export function asOneOf<const Choice extends string>(choices: readonly Choice[]): SettingReader<Choice> {
  return (value, source) => {
    if (isUnset(value)) return undefined;
    if (typeof value === 'string' && (choices as readonly string[]).includes(value)) return value as Choice;
    throw typeError(source, choices.map((choice) => JSON.stringify(choice)).join(' or '), value);
  };
}

/** A reader for an object recognised by shape (an injected SDK client, a fetch function). */
export function asInstance<Value>(expected: string, matches: (value: unknown) => boolean): SettingReader<Value> {
  return (value, source) => {
    if (isUnset(value)) return undefined;
    if (!matches(value)) throw typeError(source, expected, value);
    return value as Value;
  };
}

/**
 * One setting by the precedence rule: the agent's `providers.<id>.<key>`, then the factory's
 * `<key>`, then the environment variables in `envNames`, in order; the first layer that sets it wins.
 */
export function resolveSetting<Value>(layers: SettingLayers, key: string, read: SettingReader<Value>, envNames: readonly string[] = []): Value | undefined {
  const fromAgent = read(layers.agent[key], `providers.${layers.providerId}.${key}`);
  if (fromAgent !== undefined) return fromAgent;
  const fromFactory = read(layers.factory[key], `The ${layers.providerId} provider setting "${key}"`);
  if (fromFactory !== undefined) return fromFactory;
  for (const name of envNames) {
    const fromEnv = read(layers.env[name], name);
    if (fromEnv !== undefined) return fromEnv;
  }
  return undefined;
}

/** A string setting by the precedence rule (keys, base URLs, versions). */
export function stringSetting(layers: SettingLayers, key: string, envNames: readonly string[] = []): string | undefined {
  return resolveSetting(layers, key, asString, envNames);
}

function headerRecord(value: unknown, source: string): Record<string, string> {
  if (isUnset(value)) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw typeError(source, 'an object of header names to strings', value);
  const headers: Record<string, string> = {};
  for (const [name, header] of Object.entries(value as Record<string, unknown>)) {
    if (header === undefined) continue;
    if (typeof header !== 'string') throw typeError(`${source}["${name}"]`, 'a string', header);
    headers[name] = header;
  }
  return headers;
}

/**
 * Headers merge instead of replacing: the factory's first, then the agent's, so the agent's value
 * of one header wins without dropping the factory's others. Undefined when neither sets any.
 */
export function headersSetting(layers: SettingLayers, key = 'headers'): Record<string, string> | undefined {
  const headers = {
    ...headerRecord(layers.factory[key], `The ${layers.providerId} provider setting "${key}"`),
    ...headerRecord(layers.agent[key], `providers.${layers.providerId}.${key}`),
  };
  return Object.keys(headers).length > 0 ? headers : undefined;
}
