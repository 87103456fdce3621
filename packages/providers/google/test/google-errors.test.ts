import { isAbortError, ProviderError } from '@cairn/core';
import { fixtureResponse, startFixtureServer } from '@cairn/core/testing';
import { describe, expect, it } from 'vitest';
import { createGoogle } from '../src/index.js';
import { replay, userPrompt } from './helpers.js';

async function rejection(response: Parameters<typeof startFixtureServer>[0]): Promise<ProviderError> {
  const server = await startFixtureServer(response);
  try {
    const model = createGoogle({ apiKey: 'test-key', baseURL: server.url }).languageModel('gemini-2.5-flash');
    const error = await model.doStream({ prompt: userPrompt }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    // One request only: the SDK's retries are off (`retryOptions.attempts: 1`).
    expect(server.requests).toHaveLength(1);
    expect(ProviderError.isInstance(error)).toBe(true);
    return error as ProviderError;
  } finally {
    await server.close();
  }
}

function facts(error: ProviderError) {
  return { message: error.message, status: error.status, isRetryable: error.isRetryable, retryAfterMs: error.retryAfterMs, code: error.code };
}

describe('google HTTP errors', () => {
  it('400 API_KEY_INVALID tells to check GEMINI_API_KEY', async () => {
    const error = await rejection([fixtureResponse('google/error-400-api-key-invalid.json')]);
    expect(error.message).toContain('Check GEMINI_API_KEY');
    expect(facts(error)).toMatchInlineSnapshot(`
      {
        "code": "API_KEY_INVALID",
        "isRetryable": false,
        "message": "Gemini API error 400 (INVALID_ARGUMENT, API_KEY_INVALID): API key not valid. Please pass a valid API key. Check GEMINI_API_KEY (or GOOGLE_API_KEY) or pass providers.google.apiKey.",
        "retryAfterMs": undefined,
        "status": 400,
      }
    `);
    expect((error.body as { error: { status: string } }).error.status).toBe('INVALID_ARGUMENT');
  });

  it('400 INVALID_ARGUMENT is not retryable', async () => {
    expect(facts(await rejection([fixtureResponse('google/error-400-invalid-argument.json')]))).toMatchInlineSnapshot(`
      {
        "code": "INVALID_ARGUMENT",
        "isRetryable": false,
        "message": "Gemini API error 400 (INVALID_ARGUMENT): Penalty is not enabled for models/gemini-2.5-flash.",
        "retryAfterMs": undefined,
        "status": 400,
      }
    `);
  });

  it('403 SERVICE_DISABLED says what to enable', async () => {
    expect(facts(await rejection([fixtureResponse('google/error-403-permission-denied.json')]))).toMatchInlineSnapshot(`
      {
        "code": "SERVICE_DISABLED",
        "isRetryable": false,
        "message": "Gemini API error 403 (PERMISSION_DENIED, SERVICE_DISABLED): Generative Language API has not been used in project 12345678 before or it is disabled. Enable it by visiting https://console.developers.google.com/apis/api/generativelanguage.googleapis.com/overview?project=12345678 then retry. If you enabled this API recently, wait a few minutes for the action to propagate to our systems and retry. Enable the Generative Language API for the key’s project, or use a key from Google AI Studio.",
        "retryAfterMs": undefined,
        "status": 403,
      }
    `);
  });

  it('404 NOT_FOUND points at the model id', async () => {
    expect(facts(await rejection([fixtureResponse('google/error-404-model-not-found.json')]))).toMatchInlineSnapshot(`
      {
        "code": "NOT_FOUND",
        "isRetryable": false,
        "message": "Gemini API error 404 (NOT_FOUND): models/gemini-5.0-flash is not found for API version v1, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods. Check the model id (see the provider catalog).",
        "retryAfterMs": undefined,
        "status": 404,
      }
    `);
  });

  it('429 RESOURCE_EXHAUSTED is retryable', async () => {
    expect(facts(await rejection([fixtureResponse('google/error-429-quota-exceeded.json')]))).toMatchInlineSnapshot(`
      {
        "code": "RATE_LIMIT_EXCEEDED",
        "isRetryable": true,
        "message": "Gemini API error 429 (RESOURCE_EXHAUSTED, RATE_LIMIT_EXCEEDED): Quota exceeded for quota metric 'Generate Content API requests per minute' and limit 'GenerateContent request limit per minute for a region' of service 'generativelanguage.googleapis.com' for consumer 'project_number:348715329010'.",
        "retryAfterMs": undefined,
        "status": 429,
      }
    `);
  });

  it('RetryInfo retryDelay becomes retryAfterMs, capped', async () => {
    const body = (delay: string) =>
      JSON.stringify({ error: { code: 429, message: 'Slow down', status: 'RESOURCE_EXHAUSTED', details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: delay }] } });
    const short = await rejection([{ status: 429, headers: { 'content-type': 'application/json' }, body: body('12s') }]);
    expect([short.isRetryable, short.retryAfterMs]).toEqual([true, 12_000]);
    const long = await rejection([{ status: 429, headers: { 'content-type': 'application/json' }, body: body('86400s') }]);
    expect(long.retryAfterMs).toBe(600_000);
    expect(long.message).toContain('capped at 600 s');
  });

  it('503 UNAVAILABLE is retryable', async () => {
    const error = await rejection([{ status: 503, headers: { 'content-type': 'application/json' }, body: '{"error":{"code":503,"message":"The model is overloaded. Please try again later.","status":"UNAVAILABLE"}}' }]);
    expect([error.status, error.isRetryable, error.code]).toEqual([503, true, 'UNAVAILABLE']);
  });
});

describe('google mid-stream failures', () => {
  it('an error chunk inside a 200 stream is an in-band ProviderError', async () => {
    const first = 'data: {"candidates":[{"content":{"parts":[{"text":"Hel"}],"role":"model"}}],"responseId":"r1"}\r\n\r\n';
    const failure = 'data: {"error":{"code":503,"message":"The model is overloaded.","status":"UNAVAILABLE"}}\r\n\r\n';
    const { parts } = await replay([{ headers: { 'content-type': 'text/event-stream' }, body: first + failure, chunkSize: first.length }]);
    const last = parts.at(-1) as { type: string; error: ProviderError };
    expect(parts.map((part) => part.type)).toEqual(['stream-start', 'response-metadata', 'text-start', 'text-delta', 'error']);
    expect([last.error.status, last.error.isRetryable, last.error.responseStarted]).toEqual([503, true, true]);
  });

  it('a stream dropped inside the function-call chunk yields an error part and no tool-call', async () => {
    const file = fixtureResponse('google/stream-thoughts-function-call-signature.sse');
    const dropAfterBytes = Buffer.from(file.body).indexOf('"functionCall"') + 20;
    const { parts } = await replay([{ ...file, dropAfterBytes, chunkSize: 64, chunkDelayMs: 1 }]);
    expect(parts.some((part) => part.type === 'tool-call')).toBe(false);
    expect(parts.some((part) => part.type === 'reasoning-delta')).toBe(true);
    const last = parts.at(-1) as { type: string; error: ProviderError };
    expect([last.type, last.error.isRetryable, last.error.responseStarted]).toEqual(['error', true, true]);
  });

  it('a Vertex stream dropped while arguments stream yields no tool-call', async () => {
    const file = fixtureResponse('google/vertex-stream-function-call-partial-args.sse');
    const dropAfterBytes = Buffer.from(file.body).indexOf('"stringValue":""');
    const { parts } = await replay([{ ...file, dropAfterBytes, chunkSize: 64, chunkDelayMs: 1 }]);
    expect(parts.some((part) => part.type === 'tool-call')).toBe(false);
    expect(parts.some((part) => part.type === 'tool-input-start')).toBe(true);
    expect(parts.at(-1)?.type).toBe('error');
  });

  it('an abort mid-stream rejects with the abort, never a ProviderError', async () => {
    const file = fixtureResponse('google/stream-text-long.sse');
    const server = await startFixtureServer([{ ...file, stallAfterBytes: 2000 }]);
    try {
      const controller = new AbortController();
      const model = createGoogle({ apiKey: 'test-key', baseURL: server.url }).languageModel('gemini-2.0-flash');
      const result = await model.doStream({ prompt: userPrompt, abortSignal: controller.signal });
      const seen: string[] = [];
      const error = await (async () => {
        for await (const part of result.stream) {
          seen.push(part.type);
          if (part.type === 'text-delta') controller.abort();
        }
      })().then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(isAbortError(error)).toBe(true);
      expect(ProviderError.isInstance(error)).toBe(false);
      expect(seen).not.toContain('finish');
    } finally {
      await server.close();
    }
  });

  it('an abort before the response rejects doStream with the abort', async () => {
    const server = await startFixtureServer([fixtureResponse('google/stream-text.sse')]);
    try {
      const controller = new AbortController();
      controller.abort();
      const model = createGoogle({ apiKey: 'test-key', baseURL: server.url }).languageModel('gemini-2.0-flash');
      const error = await model.doStream({ prompt: userPrompt, abortSignal: controller.signal }).catch((caught: unknown) => caught);
      expect(isAbortError(error)).toBe(true);
    } finally {
      await server.close();
    }
  });
});
