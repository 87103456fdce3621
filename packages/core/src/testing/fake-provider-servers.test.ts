import { describe, expect, it } from 'vitest';
import { validateChatRequest } from './chat-completions-server.js';
import { validateAnthropicRequest } from './fake-anthropic-server.js';
import { validateGeminiRequest } from './fake-gemini-server.js';
import { validateResponsesRequest } from './fake-responses-server.js';

const anthropicHeaders = { 'x-api-key': 'k', 'anthropic-version': '2023-06-01' };
const anthropicBase = { model: 'claude-sonnet-4-5', max_tokens: 8000, stream: true };
const toolUse = { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'a' } };
const toolResult = { type: 'tool_result', tool_use_id: 'toolu_1', content: 'text' };

describe('validateAnthropicRequest', () => {
  it('accepts a tool round with results first and the signed thinking block before tool_use', () => {
    const signatures = new Map([['sig', 'thinking text']]);
    const body = {
      ...anthropicBase,
      thinking: { type: 'enabled', budget_tokens: 4096 },
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'thinking text', signature: 'sig' }, toolUse] },
        { role: 'user', content: [toolResult, { type: 'text', text: 'more' }] },
      ],
    };
    expect(validateAnthropicRequest(body, anthropicHeaders, signatures, new Set(['toolu_1']))).toEqual([]);
  });

  it('rejects what the real API rejects', () => {
    const signatures = new Map([['sig', 'thinking text']]);
    const problems = (messages: object[], extra: object = {}) => validateAnthropicRequest({ ...anthropicBase, thinking: { type: 'enabled', budget_tokens: 4096 }, ...extra, messages }, anthropicHeaders, signatures).join('\n');
    expect(problems([{ role: 'user', content: 'go' }, { role: 'assistant', content: [{ type: 'thinking', thinking: 'x', signature: 'sig' }, toolUse] }, { role: 'user', content: [{ type: 'text', text: 'no results' }] }])).toMatch(/without tool_result blocks/);
    expect(problems([{ role: 'user', content: 'go' }, { role: 'assistant', content: [{ type: 'thinking', thinking: 'thinking text', signature: 'sig' }, toolUse] }, { role: 'user', content: [{ type: 'text', text: 'x' }, toolResult] }])).toMatch(/must come first/);
    expect(problems([{ role: 'user', content: 'go' }, { role: 'assistant', content: [{ type: 'thinking', thinking: 'edited', signature: 'sig' }, toolUse] }, { role: 'user', content: [toolResult] }])).toMatch(/Invalid signature/);
    expect(problems([{ role: 'user', content: 'go' }, { role: 'assistant', content: [toolUse] }, { role: 'user', content: [toolResult] }])).toMatch(/must start with a thinking block/);
    expect(problems([{ role: 'user', content: 'go' }, { role: 'user', content: 'again' }])).toMatch(/roles must alternate/);
    expect(problems([{ role: 'user', content: 'go' }], { temperature: 0.2 })).toMatch(/temperature/);
    expect(validateAnthropicRequest({ ...anthropicBase, messages: [{ role: 'user', content: 'go' }] }, {}).join('\n')).toMatch(/x-api-key/);
  });
});

describe('validateGeminiRequest', () => {
  const headers = { 'x-goog-api-key': 'k' };
  const call = { functionCall: { name: 'read_file', args: { path: 'a' } }, thoughtSignature: 'gsig' };
  const signed = [{ key: 'call:read_file:{"path":"a"}', signature: 'gsig' }];

  it('accepts a call answered by a response of the same name, with its signature back', () => {
    const contents = [
      { role: 'user', parts: [{ text: 'go' }] },
      { role: 'model', parts: [call] },
      { role: 'user', parts: [{ functionResponse: { name: 'read_file', response: { output: 'text' } } }] },
    ];
    expect(validateGeminiRequest({ contents }, headers, signed)).toEqual([]);
  });

  it('rejects missing responses, wrong names and dropped or corrupted signatures', () => {
    const problems = (contents: object[]) => validateGeminiRequest({ contents }, headers, signed).join('\n');
    expect(problems([{ role: 'user', parts: [{ text: 'go' }] }, { role: 'model', parts: [call] }, { role: 'user', parts: [{ text: 'no answer' }] }])).toMatch(/number of function response parts/);
    expect(problems([{ role: 'user', parts: [{ text: 'go' }] }, { role: 'model', parts: [call] }, { role: 'user', parts: [{ functionResponse: { name: 'list_dir', response: {} } }] }])).toMatch(/named list_dir but answers read_file/);
    const unsigned = { functionCall: call.functionCall };
    expect(problems([{ role: 'user', parts: [{ text: 'go' }] }, { role: 'model', parts: [unsigned] }, { role: 'user', parts: [{ functionResponse: { name: 'read_file', response: {} } }] }])).toMatch(/missing its thought_signature/);
    expect(problems([{ role: 'user', parts: [{ text: 'go' }] }, { role: 'model', parts: [{ text: 'hi', thoughtSignature: 'forged' }] }])).toMatch(/Corrupted thought signature/);
  });
});

describe('validateResponsesRequest', () => {
  const headers = { authorization: 'Bearer k' };
  const issued = { reasoning: new Map([['rs_1', 'enc']]), requiresReasoning: new Map([['fc_1', 'rs_1']]) };
  const base = { model: 'gpt-5.2', store: false, stream: true, reasoning: { effort: 'low' }, include: ['reasoning.encrypted_content'] };
  const reasoning = { type: 'reasoning', id: 'rs_1', encrypted_content: 'enc', summary: [] };
  const functionCall = { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'read_file', arguments: '{}' };
  const output = { type: 'function_call_output', call_id: 'call_1', output: 'text' };

  it('accepts reasoning passed back before its call, and the call answered by call_id', () => {
    expect(validateResponsesRequest({ ...base, input: [{ role: 'user', content: 'go' }, reasoning, functionCall, output] }, headers, issued)).toEqual([]);
  });

  it('rejects unanswered calls, orphan outputs, missing or altered reasoning and stored requests', () => {
    const problems = (input: object[], extra: object = {}) => validateResponsesRequest({ ...base, ...extra, input }, headers, issued).join('\n');
    expect(problems([{ role: 'user', content: 'go' }, reasoning, functionCall])).toMatch(/No tool output found for function call call_1/);
    expect(problems([{ role: 'user', content: 'go' }, output])).toMatch(/No tool call found/);
    expect(problems([{ role: 'user', content: 'go' }, functionCall, output])).toMatch(/without its required 'reasoning' item: 'rs_1'/);
    expect(problems([{ role: 'user', content: 'go' }, { ...reasoning, encrypted_content: 'other' }, functionCall, output])).toMatch(/could not be verified/);
    expect(problems([{ role: 'user', content: 'go' }], { store: true })).toMatch(/store is not false/);
    expect(problems([{ role: 'user', content: 'go' }], { include: [] })).toMatch(/reasoning.encrypted_content/);
  });
});

describe('image parts, as strict as the real APIs', () => {
  const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==';
  const gif = 'R0lGODlhAQABAAAAACw=';

  it('Chat Completions: image_url must be an http(s) URL or a base64 image data URL, and only from the user', () => {
    const problems = (content: object[], role = 'user') => validateChatRequest({ model: 'gpt', messages: [{ role, content }] }).join('\n');
    expect(problems([{ type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } }, { type: 'image_url', image_url: { url: 'https://example.com/a.png' } }])).toBe('');
    expect(problems([{ type: 'image_url', image_url: { url: `data:undefined;base64,${png}` } }])).toMatch(/unsupported MIME type 'undefined'/);
    expect(problems([{ type: 'image_url', image_url: { url: 'data:image/png;base64,not base64!' } }])).toMatch(/not valid base64/);
    expect(problems([{ type: 'image_url', image_url: { url: 'file:///etc/passwd' } }])).toMatch(/expected an http\(s\) URL/);
    expect(problems([{ type: 'image_url', image_url: { url: 'https://example.com/a.png' } }], 'system')).toMatch(/only allowed for messages with role 'user'/);
  });

  it('Responses: input_image needs a detail and a valid image_url, in messages and tool outputs', () => {
    const headers = { authorization: 'Bearer k' };
    const base = { model: 'gpt-5.2', store: false, stream: true };
    const problems = (input: object[]) => validateResponsesRequest({ ...base, input }, headers).join('\n');
    expect(problems([{ role: 'user', content: [{ type: 'input_image', image_url: `data:image/png;base64,${png}`, detail: 'auto' }] }])).toBe('');
    expect(problems([{ role: 'user', content: [{ type: 'input_image', image_url: 'https://example.com/a.png' }] }])).toMatch(/detail: Missing required parameter/);
    const call = { type: 'function_call', call_id: 'c', name: 'shot', arguments: '{}' };
    expect(problems([{ role: 'user', content: 'go' }, call, { type: 'function_call_output', call_id: 'c', output: [{ type: 'input_image', image_url: 'data:;base64,AAAA', detail: 'auto' }] }])).toMatch(/unsupported MIME type ''/);
  });

  it('Anthropic: base64 images need a supported media_type that matches the bytes; url sources an http(s) URL', () => {
    const problems = (content: object[]) => validateAnthropicRequest({ ...anthropicBase, messages: [{ role: 'user', content }] }, anthropicHeaders).join('\n');
    expect(problems([{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } }, { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } }])).toBe('');
    expect(problems([{ type: 'image', source: { type: 'base64', data: png } }])).toMatch(/media_type: Input should be/);
    expect(problems([{ type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: png } }])).toMatch(/does not match the provided media type/);
    expect(problems([{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'a b' } }])).toMatch(/not valid base64/);
  });

  it('Gemini: inlineData needs a supported mimeType and base64 data; fileData a fileUri', () => {
    const problems = (parts: object[]) => validateGeminiRequest({ contents: [{ role: 'user', parts }] }, { 'x-goog-api-key': 'k' }).join('\n');
    expect(problems([{ inlineData: { mimeType: 'image/png', data: png } }, { fileData: { fileUri: 'https://example.com/a.png', mimeType: 'image/png' } }, { fileData: { fileUri: 'https://example.com/x' } }])).toBe('');
    expect(problems([{ inlineData: { data: png } }])).toMatch(/mime_type is not specified/);
    expect(problems([{ inlineData: { mimeType: 'image/gif', data: gif } }])).toMatch(/Unsupported MIME type: image\/gif/);
    expect(problems([{ fileData: { mimeType: 'image/png' } }])).toMatch(/file_uri is not specified/);
  });
});
