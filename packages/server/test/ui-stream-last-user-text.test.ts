import { CairnError } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { lastUserText } from '../src/ui-stream/index.js';

const user = (id: string, parts: object[]) => ({ id, role: 'user', parts });
const assistant = (id: string, text: string) => ({ id, role: 'assistant', parts: [{ type: 'step-start' }, { type: 'text', text, state: 'done' }] });
const text = (value: string) => ({ type: 'text', text: value });

function errorOf(body: unknown): CairnError {
  try {
    lastUserText(body);
  } catch (error) {
    if (CairnError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('lastUserText accepted the body');
}

describe('lastUserText', () => {
  it('takes the last user message of the conversation, its text parts joined', () => {
    const body = {
      id: 'chat-1',
      trigger: 'submit-message',
      messages: [user('m1', [text('First question')]), assistant('m2', 'First answer'), user('m3', [text('Second'), { type: 'data-note', data: {} }, text('question')])],
    };
    expect(lastUserText(body)).toEqual({ chatId: 'chat-1', trigger: 'submit-message', text: 'Second\n\nquestion', images: [] });
  });

  it('regenerate: the user message before the removed answer is sent again', () => {
    const body = { id: 'chat-1', trigger: 'regenerate-message', messageId: 'm2', messages: [user('m1', [text('Again, please')])] };
    expect(lastUserText(body)).toMatchObject({ trigger: 'regenerate-message', text: 'Again, please' });
  });

  it('an image alone is a message', () => {
    const body = { messages: [user('m1', [{ type: 'file', mediaType: 'image/jpeg', url: 'data:image/jpeg;base64,/9j/4AAQ' }])] };
    expect(lastUserText(body)).toEqual({ text: '', images: [{ data: '/9j/4AAQ', mimeType: 'image/jpeg' }] });
  });

  it('says what to send when the body is not a chat request, has no user message or no text', () => {
    for (const body of [undefined, 'hello', { messages: 'hello' }, { messages: [{ role: 'user' }] }]) {
      const error = errorOf(body);
      expect(error).toMatchObject({ code: 'invalid_chat_request', status: 400 });
      expect(error.message).toContain('The chat request is not a useChat body');
      expect(error.message).toContain('"role": "user", "parts": [{ "type": "text"');
    }
    expect(errorOf({ messages: [] }).message).toMatch(/^The chat request has no user message\./);
    expect(errorOf({ messages: [assistant('m1', 'hi')] }).message).toMatch(/^The chat request has no user message\./);
    expect(errorOf({ messages: [user('m1', [text('  ')])] }).message).toMatch(/^The last user message has no text/);
  });

  it('refuses attachments it cannot pass on: other files, remote addresses, malformed parts', () => {
    const withFile = (file: object) => ({ messages: [user('m1', [text('see'), { type: 'file', ...file }])] });
    expect(errorOf(withFile({ mediaType: 'application/pdf', url: 'data:application/pdf;base64,JVBER' })).message).toMatch(/^Only image files can be attached \(this one is application\/pdf\)/);
    expect(errorOf(withFile({ mediaType: 'image/png', url: 'https://example.com/cat.png' })).message).toMatch(/^Attach images as base64 data URLs/);
    expect(errorOf(withFile({ url: 'data:image/png;base64,AAAA' })).message).toMatch(/^A file part of the last user message is malformed \(mediaType: /);
  });
});
