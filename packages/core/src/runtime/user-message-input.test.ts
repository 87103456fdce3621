import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../spec/errors/index.js';
import type { SDKUserMessage } from '../spec/message/v1/index.js';
import { detectImageMediaType, imageMediaTypeOfUrl, isBase64 } from './image-data.js';
import { normalizeUserMessage } from './user-message-input.js';
import type { UserMessage } from './user-message.js';

const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==';

function refusal(message: unknown): string {
  try {
    normalizeUserMessage(message as UserMessage);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigurationError');
}

describe('normalizeUserMessage', () => {
  it('takes the documented SDKUserMessage, Cairn’s earlier mediaType and data: URLs given as url', () => {
    const documented: SDKUserMessage = { text: 'What is this?', images: [{ data: png, mimeType: 'image/png', dimension: { width: 1, height: 1 } }, { url: 'https://example.com/a.png' }] };
    expect(normalizeUserMessage(documented)).toEqual({
      text: 'What is this?',
      images: [{ data: png, mimeType: 'image/png', dimension: { width: 1, height: 1 } }, { url: 'https://example.com/a.png' }],
    });
    expect(normalizeUserMessage({ text: 'x', images: [{ data: png, mediaType: 'IMAGE/PNG' }] }).images).toEqual([{ data: png, mimeType: 'image/png' }]);
    expect(normalizeUserMessage({ text: 'x', images: [{ url: `data:image/png;base64,${png}` }] }).images).toEqual([{ data: png, mimeType: 'image/png' }]);
    expect(normalizeUserMessage('plain')).toEqual({ text: 'plain' });
  });

  it('refuses images it cannot send, saying what to change', () => {
    expect(refusal({ text: 'x', images: [{}] })).toMatch(/images\[0\] has neither url nor data/);
    expect(refusal({ text: 'x', images: [{ data: png }] })).toMatch(/has data but no mimeType/);
    expect(refusal({ text: 'x', images: [{ data: 'not base64!', mimeType: 'image/png' }] })).toMatch(/data is not base64/);
    expect(refusal({ text: 'x', images: [{ data: `data:image/png;base64,${png}`, mimeType: 'image/png' }] })).toMatch(/data is a data: URL/);
    expect(refusal({ text: 'x', images: [{ data: png, mimeType: 'image/bmp' }] })).toMatch(/"image\/bmp" is not supported: use one of image\/png, image\/jpeg, image\/gif, image\/webp/);
    expect(refusal({ text: 'x', images: [{ data: png, mimeType: 'image/jpeg' }] })).toMatch(/mimeType is image\/jpeg but the bytes are image\/png/);
    expect(refusal({ text: 'x', images: [{ url: 'file:///tmp/a.png' }] })).toMatch(/must be an http\(s\) URL/);
    expect(refusal({ text: 'x', images: [{ url: 'not a url' }] })).toMatch(/is not a valid URL/);
    expect(refusal({ text: 'x', images: [{ url: 'https://example.com/a.png', data: png }] })).toMatch(/both url and data/);
    expect(refusal({ text: 'x', images: [{ url: 'https://example.com/a.png', detail: 'high' }] })).toMatch(/unknown field detail/);
    expect(refusal({ text: 'x', images: [{ url: 'https://example.com/a.png', dimension: { width: 0, height: 2 } }] })).toMatch(/dimension must be/);
    expect(refusal({ text: 'x', images: 'a.png' })).toMatch(/images must be an array/);
    expect(refusal({ text: 'x', image: [] })).toMatch(/unknown field image/);
  });
});

describe('image data helpers', () => {
  it('detect types from bytes and URLs, and check base64 strictly', () => {
    expect(detectImageMediaType(png)).toBe('image/png');
    expect(detectImageMediaType('/9j/4AAQSkZJRgABAQ==')).toBe('image/jpeg');
    expect(detectImageMediaType('R0lGODlhAQABAAAAACw=')).toBe('image/gif');
    expect(detectImageMediaType(btoa('RIFF\u0000\u0000\u0000\u0000WEBPVP8 '))).toBe('image/webp');
    expect(detectImageMediaType('AAAA')).toBeUndefined();
    expect(imageMediaTypeOfUrl('https://example.com/a/shot.JPG?x=1')).toBe('image/jpeg');
    expect(imageMediaTypeOfUrl('https://example.com/render?id=3')).toBeUndefined();
    expect(isBase64(png)).toBe(true);
    expect(isBase64('abc')).toBe(false);
    expect(isBase64('ab c')).toBe(false);
  });
});
