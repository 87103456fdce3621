import { describe, expect, it } from 'vitest';
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
