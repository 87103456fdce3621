import { describe, expect, it } from 'vitest';
import { nodeHttpFetch } from './node-http-fetch.js';
import { asFetch, sdkFetch } from './transport.js';

describe('sdkFetch', () => {
  it('gives the user’s fetch without loading the node:http entry, else (in Node) the node:http transport', async () => {
    let loads = 0;
    const load = async () => {
      loads += 1;
      return import('./node-http-fetch.js');
    };
    const userFetch: typeof fetch = (input, init) => fetch(input, init);
    expect(await sdkFetch(userFetch, load)).toBe(userFetch);
    expect(loads).toBe(0);
    expect(await sdkFetch(undefined, load)).toBe(nodeHttpFetch);
    expect(loads).toBe(1);
  });

  it('reads a fetch setting: a function, else a ConfigurationError naming the setting', () => {
    expect(asFetch(fetch, 'providers.openai.fetch')).toBe(fetch);
    expect(asFetch(undefined, 'providers.openai.fetch')).toBeUndefined();
    expect(() => asFetch('https://example.test', 'providers.openai.fetch')).toThrowError('providers.openai.fetch must be a fetch function');
  });
});
