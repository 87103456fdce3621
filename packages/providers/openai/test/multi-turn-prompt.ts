import type { ModelMessage } from '@cairn/core';

/** A conversation with reasoning, parallel tool calls, their results (one with an image) and a follow-up. */
export const multiTurnPrompt: ModelMessage[] = [
  { role: 'system', content: 'You are a coding agent.' },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'Why does the build fail? Screenshot attached.' },
      { type: 'image', data: 'iVBORw0KGgo=', mediaType: 'image/png' },
    ],
  },
  {
    role: 'assistant',
    content: [
      {
        type: 'reasoning',
        text: '**Reading the logs**',
        providerMetadata: { openai: { itemId: 'rs_1', encryptedContent: 'gAAAA-encrypted-1' } },
      },
      { type: 'text', text: 'Let me look at the config and the log.', providerMetadata: { openai: { itemId: 'msg_1', phase: 'commentary' } } },
      { type: 'tool-call', toolCallId: 'call_a', toolName: 'read_file', input: { path: 'tsconfig.json' }, providerMetadata: { openai: { itemId: 'fc_a' } } },
      { type: 'tool-call', toolCallId: 'call_b', toolName: 'grep', input: { pattern: 'error TS' }, providerMetadata: { openai: { itemId: 'fc_b' } } },
    ],
  },
  {
    role: 'tool',
    content: [
      { type: 'tool-result', toolCallId: 'call_a', toolName: 'read_file', output: { type: 'json', value: { compilerOptions: { strict: true } } } },
      { type: 'tool-result', toolCallId: 'call_b', toolName: 'grep', output: { type: 'error-text', value: 'grep: no matches' } },
    ],
  },
  {
    role: 'assistant',
    content: [{ type: 'tool-call', toolCallId: 'call_c', toolName: 'screenshot', input: {} }],
  },
  {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: 'call_c',
        toolName: 'screenshot',
        output: { type: 'content', value: [{ type: 'text', text: 'The page:' }, { type: 'image', data: 'R0lGOD', mediaType: 'image/gif' }] },
      },
    ],
  },
  { role: 'assistant', content: [{ type: 'text', text: 'strict is on.' }] },
  { role: 'user', content: [{ type: 'text', text: 'Fix it.' }] },
];
