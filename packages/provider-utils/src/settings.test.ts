import { ConfigurationError } from '@cairn/core/errors';
import { describe, expect, it } from 'vitest';
import { asBoolean, asInstance, asNumber, asOneOf, headersSetting, resolveSetting, settingLayers, stringSetting } from './settings.js';

function layers(agent: Record<string, unknown>, factory: Record<string, unknown>, env: Record<string, string | undefined> = {}) {
  return settingLayers('acme', factory, { settings: agent, env });
}

function thrown(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('setting precedence: agent, then factory, then env', () => {
  it('the most specific layer that sets a value wins', () => {
    const env = { ACME_API_KEY: 'from-env' };
    expect(stringSetting(layers({ apiKey: 'from-agent' }, { apiKey: 'from-factory' }, env), 'apiKey', ['ACME_API_KEY'])).toBe('from-agent');
    expect(stringSetting(layers({}, { apiKey: 'from-factory' }, env), 'apiKey', ['ACME_API_KEY'])).toBe('from-factory');
    expect(stringSetting(layers({}, {}, env), 'apiKey', ['ACME_API_KEY'])).toBe('from-env');
    expect(stringSetting(layers({}, {}), 'apiKey', ['ACME_API_KEY'])).toBeUndefined();
  });

  it('env variables are tried in order, and blanks (empty, null) do not hide the next layer', () => {
    expect(stringSetting(layers({ apiKey: '' }, { apiKey: null }, { FIRST: '', SECOND: 'second' }), 'apiKey', ['FIRST', 'SECOND'])).toBe('second');
  });

  it('false is a value, not a blank: it wins over the next layer', () => {
    expect(resolveSetting(layers({ promptCacheKey: false }, { promptCacheKey: true }), 'promptCacheKey', asBoolean)).toBe(false);
  });

  it('a value of the wrong type is an error that names where it came from', () => {
    const agent = thrown(() => stringSetting(layers({ apiKey: 42 }, {}), 'apiKey'));
    expect(ConfigurationError.isInstance(agent)).toBe(true);
    expect((agent as Error).message).toBe('providers.acme.apiKey must be a string, got number.');
    expect((thrown(() => resolveSetting(layers({}, { api: 'completions' }), 'api', asOneOf(['chat', 'responses']))) as Error).message).toBe(
      'The acme provider setting "api" must be "chat" or "responses", got "completions".',
    );
    expect((thrown(() => resolveSetting(layers({}, {}, { ACME_DIMS: 'wide' }), 'dims', asNumber, ['ACME_DIMS'])) as Error).message).toBe('ACME_DIMS must be a number, got "wide".');
  });

  it('reads numbers from env text and objects by shape', () => {
    expect(resolveSetting(layers({}, {}, { ACME_DIMS: '768' }), 'dims', asNumber, ['ACME_DIMS'])).toBe(768);
    const client = { chat: {} };
    const isClient = asInstance<typeof client>('an Acme client', (value) => typeof value === 'object' && value !== null && 'chat' in value);
    expect(resolveSetting(layers({ client }, { client: { other: true } }), 'client', isClient)).toBe(client);
    expect((thrown(() => resolveSetting(layers({ client: 'nope' }, {}), 'client', isClient)) as Error).message).toBe('providers.acme.client must be an Acme client, got "nope".');
  });

  it('headers merge: the factory first, the agent over it, per header', () => {
    expect(headersSetting(layers({ headers: { 'x-team': 'agent', 'x-run': 'r1' } }, { headers: { 'x-team': 'factory', 'x-app': 'cairn' } }))).toEqual({
      'x-team': 'agent',
      'x-app': 'cairn',
      'x-run': 'r1',
    });
    expect(headersSetting(layers({}, {}))).toBeUndefined();
    expect((thrown(() => headersSetting(layers({ headers: { 'x-n': 1 } }, {}))) as Error).message).toBe('providers.acme.headers["x-n"] must be a string, got number.');
  });

  it('without a context, the process environment is the env layer', () => {
    expect(settingLayers('acme', {}, undefined).env).toBe(process.env);
  });
});
