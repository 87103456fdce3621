import type { FakeProviderServer } from '@cairn/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, ConfigurationError, createMemoryStore, type SDKImage, type SDKUserMessage } from '../../src/index.js';
import { makeWorkspace, type ProviderCase, providerCases } from '../provider-harness.js';
import { oneCasePerWire, wireOf } from './wire-inspection.js';

const servers: FakeProviderServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

// A 1x1 PNG, the "screenshot" of the document's example.
const base64Png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==';
const screenshotUrl = 'https://example.com/screens/checkout.png';

/** What each wire protocol must carry for `{ data, mimeType }` and `{ url }`. */
const expectedWire: Record<string, [unknown, unknown]> = {
  'Anthropic Messages': [
    { type: 'image', source: { type: 'base64', media_type: 'image/png', data: base64Png } },
    { type: 'image', source: { type: 'url', url: screenshotUrl } },
  ],
  Gemini: [{ inlineData: { mimeType: 'image/png', data: base64Png } }, { fileData: { fileUri: screenshotUrl, mimeType: 'image/png' } }],
  'OpenAI Responses': [
    { type: 'input_image', image_url: `data:image/png;base64,${base64Png}`, detail: 'auto' },
    { type: 'input_image', image_url: screenshotUrl, detail: 'auto' },
  ],
  'OpenAI Chat Completions': [
    { type: 'image_url', image_url: { url: `data:image/png;base64,${base64Png}` } },
    { type: 'image_url', image_url: { url: screenshotUrl } },
  ],
};

async function agentFor(provider: ProviderCase) {
  const server = await provider.start([{ text: 'A checkout page.' }, { text: 'Still the checkout page.' }]);
  servers.push(server);
  const store = createMemoryStore();
  const agent = await Agent.create({ model: provider.model, env: provider.env(server.url), retry: { maxAttempts: 1 }, local: { cwd: await makeWorkspace(), store } });
  return { agent, server, store };
}

describe.each(oneCasePerWire(providerCases))('images of send() through $name', (provider) => {
  it('sends { data, mimeType } and { url } images in the wire form the API takes, on this run and the next', async () => {
    const { agent, server } = await agentFor(provider);
    const message: SDKUserMessage = {
      text: "What's in this screenshot?",
      images: [{ data: base64Png, mimeType: 'image/png' }, { url: screenshotUrl, dimension: { width: 1280, height: 720 } }],
    };
    const run = await agent.send(message);
    const result = await run.wait();
    expect(result.status).toBe('finished');
    expect(result.result).toBe('A checkout page.');
    const wire = wireOf(provider);
    expect(wire.userImages(server.requests[0]!)).toEqual(expectedWire[provider.name]);

    // The images stay in the conversation: the follow-up sends them again, still valid.
    expect((await (await agent.send('And now?')).wait()).status).toBe('finished');
    expect(wire.userImages(server.requests[1]!)).toEqual(expectedWire[provider.name]);
    expect(server.problems).toEqual([]);
  });

  it('still takes Cairn’s earlier { data, mediaType }', async () => {
    const { agent, server } = await agentFor(provider);
    const result = await (await agent.send({ text: 'Look.', images: [{ data: base64Png, mediaType: 'image/png' }] })).wait();
    expect(result.status).toBe('finished');
    expect(wireOf(provider).userImages(server.requests[0]!)).toEqual([expectedWire[provider.name]![0]]);
    expect(server.problems).toEqual([]);
  });
});

describe('images send() cannot send are refused before any run starts', () => {
  const chat = providerCases.find((provider) => provider.name === 'OpenAI Chat Completions')!;

  it.each<[string, unknown, RegExp]>([
    ['neither url nor data', {}, /images\[0\] has neither url nor data/],
    ['data without mimeType', { data: base64Png }, /has data but no mimeType/],
    ['data that is not base64', { data: 'a screenshot', mimeType: 'image/png' }, /data is not base64/],
    ['an unsupported type', { data: base64Png, mimeType: 'image/tiff' }, /"image\/tiff" is not supported/],
    ['a type the bytes contradict', { data: base64Png, mimeType: 'image/jpeg' }, /but the bytes are image\/png/],
    ['a local file URL', { url: 'file:///home/me/shot.png' }, /must be an http\(s\) URL/],
  ])('%s', async (_name, image, message) => {
    const { agent, server, store } = await agentFor(chat);
    const sent = agent.send({ text: 'Look.', images: [image as SDKImage] });
    await expect(sent).rejects.toThrow(ConfigurationError);
    await expect(sent).rejects.toThrow(message);
    expect((await store.runs.list(agent.agentId)).items).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });
});
