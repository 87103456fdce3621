import { ConfigurationError, type ModelMessage } from '@cairn/core';
import { fixtureResponse, startFixtureServer } from '@cairn/core/testing';
import { describe, expect, it } from 'vitest';
import { createGoogle, google } from '../src/index.js';
import { assistantMessageFromParts, collect, replay, shorten } from './helpers.js';

const tools = [
  { type: 'function' as const, name: 'get_country', description: 'The country of a city.', inputSchema: { type: 'object', properties: { city: { type: 'string' } }, additionalProperties: false } },
];

describe('google outgoing requests', () => {
  it('a multi-turn conversation: signatures go back on their parts, functionResponse names its call', async () => {
    const first = await replay('google/stream-thoughts-gemini-2.5-pro.sse', {}, 'gemini-3-pro-preview');
    const answerTurn = assistantMessageFromParts(first.parts);
    const second = await replay('google/stream-function-call-thought-signature.sse', { tools }, 'gemini-3-pro-preview');
    const callTurn = assistantMessageFromParts(second.parts);
    const call = callTurn.content.find((part) => part.type === 'tool-call');
    if (call?.type !== 'tool-call') throw new Error('the fixture has a call');
    const prompt: ModelMessage[] = [
      { role: 'system', content: 'You are a coding agent.' },
      { role: 'user', content: [{ type: 'text', text: 'How do I cross the street?' }] },
      answerTurn,
      { role: 'user', content: [{ type: 'text', text: 'Which country is Paris in?' }] },
      callTurn,
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: call.toolCallId, toolName: call.toolName, output: { type: 'json', value: { country: 'France' } } }] },
    ];
    const third = await replay('google/stream-text.sse', { prompt, tools, reasoningEffort: 'high', maxOutputTokens: 4096, toolChoice: { type: 'auto' } }, 'gemini-3-pro-preview');
    const sent = third.server.requests[0]!;
    expect(sent.url).toBe('/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse');
    expect(sent.headers['x-goog-api-key']).toBe('test-key');
    const body = sent.body as { contents: Array<{ role: string; parts: Array<Record<string, any>> }> };
    // Exact signatures, exact names.
    const textSignature = first.parts.find((part) => part.type === 'text-end');
    expect(body.contents[1]!.parts.find((part) => part.text && !part.thought)?.thoughtSignature).toBe(
      textSignature?.type === 'text-end' ? textSignature.providerMetadata?.google?.thoughtSignature : 'missing',
    );
    const firstPart = (index: number): Record<string, any> => body.contents[index]?.parts[0] ?? {};
    expect(firstPart(3).thoughtSignature).toBe(call.providerMetadata?.google?.thoughtSignature);
    expect(firstPart(4).functionResponse.name).toBe(firstPart(3).functionCall.name);
    expect(shorten(sent.body, 48)).toMatchInlineSnapshot(`
      {
        "contents": [
          {
            "parts": [
              {
                "text": "How do I cross the street?",
              },
            ],
            "role": "user",
          },
          {
            "parts": [
              {
                "text": "**Clarifying User Goals**

      I'm currently focused…(1575)",
                "thought": true,
              },
              {
                "text": "This is a great question! Safely crossing the st…(1938)",
                "thoughtSignature": "CiIB0e2Kb6Syj1a961EfbWv4W5C8RgAA/hGleV9VYJtnJFh4…(6152)",
              },
            ],
            "role": "model",
          },
          {
            "parts": [
              {
                "text": "Which country is Paris in?",
              },
            ],
            "role": "user",
          },
          {
            "parts": [
              {
                "functionCall": {
                  "args": {},
                  "name": "get_country",
                },
                "thoughtSignature": "EpwICpkIAXLI2nxlU6gsWZaZHRYkX1orzuM8vSUFwaAt1JRx…(1408)",
              },
            ],
            "role": "model",
          },
          {
            "parts": [
              {
                "functionResponse": {
                  "name": "get_country",
                  "response": {
                    "output": {
                      "country": "France",
                    },
                  },
                },
              },
            ],
            "role": "user",
          },
        ],
        "generationConfig": {
          "maxOutputTokens": 4096,
          "thinkingConfig": {
            "includeThoughts": true,
            "thinkingLevel": "HIGH",
          },
        },
        "systemInstruction": {
          "parts": [
            {
              "text": "You are a coding agent.",
            },
          ],
        },
        "toolConfig": {
          "functionCallingConfig": {
            "mode": "AUTO",
          },
        },
        "tools": [
          {
            "functionDeclarations": [
              {
                "description": "The country of a city.",
                "name": "get_country",
                "parametersJsonSchema": {
                  "additionalProperties": false,
                  "properties": {
                    "city": {
                      "type": "string",
                    },
                  },
                  "type": "object",
                },
              },
            ],
          },
        ],
      }
    `);
  });

  it('tool choice and effort map to toolConfig and a thinking budget on Gemini 2.5', async () => {
    const { server } = await replay('google/stream-function-call.sse', { tools, toolChoice: { type: 'tool', toolName: 'get_country' }, reasoningEffort: 'low', temperature: 0.1, stopSequences: ['END'] });
    const body = server.requests[0]!.body as { generationConfig: unknown; toolConfig: unknown };
    expect([body.generationConfig, body.toolConfig]).toMatchInlineSnapshot(`
      [
        {
          "stopSequences": [
            "END",
          ],
          "temperature": 0.1,
          "thinkingConfig": {
            "includeThoughts": true,
            "thinkingBudget": 2048,
          },
        },
        {
          "functionCallingConfig": {
            "allowedFunctionNames": [
              "get_country",
            ],
            "mode": "ANY",
          },
        },
      ]
    `);
  });

  it('Gemini 3 history without signatures gets the documented placeholder on its first call', async () => {
    const { server } = await replay(
      'google/stream-text.sse',
      {
        prompt: [
          { role: 'user', content: [{ type: 'text', text: 'ls' }] },
          { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'ls', input: {} }, { type: 'tool-call', toolCallId: 'c2', toolName: 'ls', input: { path: 'src' } }] },
          { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'ls', output: { type: 'text', value: 'a' } }, { type: 'tool-result', toolCallId: 'c2', toolName: 'ls', output: { type: 'error-text', value: 'denied' } }] },
        ],
      },
      'gemini-3-pro-preview',
    );
    expect((server.requests[0]!.body as { contents: unknown[] }).contents.slice(1)).toMatchInlineSnapshot(`
      [
        {
          "parts": [
            {
              "functionCall": {
                "args": {},
                "name": "ls",
              },
              "thoughtSignature": "skip_thought_signature_validator",
            },
            {
              "functionCall": {
                "args": {
                  "path": "src",
                },
                "name": "ls",
              },
            },
          ],
          "role": "model",
        },
        {
          "parts": [
            {
              "functionResponse": {
                "name": "ls",
                "response": {
                  "output": "a",
                },
              },
            },
            {
              "functionResponse": {
                "name": "ls",
                "response": {
                  "error": "denied",
                },
              },
            },
          ],
          "role": "user",
        },
      ]
    `);
  });

  it('headers from settings and from the call are sent', async () => {
    const server = await startFixtureServer([fixtureResponse('google/stream-text.sse')]);
    try {
      const model = createGoogle({ apiKey: 'test-key', baseURL: server.url, headers: { 'x-team': 'cairn' } }).languageModel('gemini-2.0-flash');
      await collect((await model.doStream({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], headers: { 'x-run': 'run-1' } })).stream);
      expect([server.requests[0]!.headers['x-team'], server.requests[0]!.headers['x-run']]).toEqual(['cairn', 'run-1']);
    } finally {
      await server.close();
    }
  });
});

describe('google embeddings', () => {
  it('embeds a batch through batchEmbedContents', async () => {
    const server = await startFixtureServer((request) => {
      const count = (request.body as { requests: unknown[] }).requests.length;
      return { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ embeddings: Array.from({ length: count }, (_, index) => ({ values: [index, 0.5, -0.5] })) }) };
    });
    try {
      const model = createGoogle({ apiKey: 'test-key', baseURL: server.url }).embeddingModel('gemini-embedding-001');
      expect([model.dimensions, model.maxEmbeddingsPerCall]).toEqual([3072, 100]);
      const result = await model.doEmbed({ values: ['function a() {}', 'class B {}'] });
      expect(result.embeddings).toEqual([
        [0, 0.5, -0.5],
        [1, 0.5, -0.5],
      ]);
      expect(server.requests[0]!.url).toBe('/v1beta/models/gemini-embedding-001:batchEmbedContents');
      expect(server.requests[0]!.body).toMatchInlineSnapshot(`
        {
          "requests": [
            {
              "content": {
                "parts": [
                  {
                    "text": "function a() {}",
                  },
                ],
                "role": "user",
              },
              "model": "models/gemini-embedding-001",
            },
            {
              "content": {
                "parts": [
                  {
                    "text": "class B {}",
                  },
                ],
                "role": "user",
              },
              "model": "models/gemini-embedding-001",
            },
          ],
        }
      `);
    } finally {
      await server.close();
    }
  });

  it('an error response is a ProviderError', async () => {
    const server = await startFixtureServer([fixtureResponse('google/error-400-api-key-invalid.json')]);
    try {
      const model = createGoogle({ apiKey: 'bad', baseURL: server.url }).embeddingModel('text-embedding-004');
      const error = (await model.doEmbed({ values: ['x'] }).catch((caught: unknown) => caught)) as Error;
      expect(error.name).toBe('ProviderError');
      expect(error.message).toContain('GEMINI_API_KEY');
    } finally {
      await server.close();
    }
  });
});

describe('google provider settings', () => {
  it('a missing key is a ConfigurationError naming the fix', () => {
    expect(() => google.languageModel('gemini-2.5-flash', { settings: {}, env: {} })).toThrowError(
      'Gemini API key missing: set GEMINI_API_KEY (or GOOGLE_API_KEY) or pass providers.google.apiKey.',
    );
    const error = (() => {
      try {
        google.embeddingModel('gemini-embedding-001', { settings: {}, env: {} });
      } catch (caught) {
        return caught;
      }
    })();
    expect(ConfigurationError.isInstance(error)).toBe(true);
    expect(google.isConfigured({ settings: {}, env: { GEMINI_API_KEY: 'k' } })).toBe(true);
  });

  it('reads GEMINI_API_KEY and GEMINI_BASE_URL from the context env', async () => {
    const server = await startFixtureServer([fixtureResponse('google/stream-text.sse')]);
    try {
      const model = google.languageModel('gemini-2.0-flash', { settings: {}, env: { GEMINI_API_KEY: 'env-key', GEMINI_BASE_URL: server.url } });
      await collect((await model.doStream({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] })).stream);
      expect(server.requests[0]!.headers['x-goog-api-key']).toBe('env-key');
    } finally {
      await server.close();
    }
  });

  it('an injected SDK client is used as is', async () => {
    const server = await startFixtureServer([fixtureResponse('google/stream-text.sse')]);
    try {
      const { GoogleGenAI } = await import('@google/genai');
      const client = new GoogleGenAI({ apiKey: 'injected', vertexai: false, httpOptions: { baseUrl: server.url } });
      const model = createGoogle({ client }).languageModel('gemini-2.0-flash', { settings: {}, env: {} });
      const parts = await collect((await model.doStream({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] })).stream);
      expect(parts.at(-1)?.type).toBe('finish');
      expect(server.requests[0]!.headers['x-goog-api-key']).toBe('injected');
    } finally {
      await server.close();
    }
  });

  it('the catalog has tiers and prices', () => {
    const models = google.models();
    expect(models.map((entry) => entry.id)).toEqual(expect.arrayContaining(['gemini-3-pro-preview', 'gemini-2.5-pro', 'gemini-2.5-flash', 'gemini-2.5-flash-lite']));
    for (const entry of models) {
      expect(entry.tier).toBeDefined();
      expect(entry.pricing?.outputPerMillion).toBeGreaterThan(0);
    }
  });
});
