import { describe, expect, it } from 'vitest';
import { isToolResultContent, maxToolResultChars, normalizeToolResult, withStructuredContentForModel } from './tool-result.js';

const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==';
const jpeg = '/9j/4AAQSkZJRgABAQ==';

describe('normalizeToolResult', () => {
  it('sends a string as text and any other JSON value as JSON text; only objects become structuredContent', () => {
    expect(normalizeToolResult('Deployed.')).toMatchObject({ output: { type: 'text', value: 'Deployed.' }, isError: false });
    expect(normalizeToolResult(42)).toEqual({ output: { type: 'text', value: '42' }, text: '42', isError: false, truncated: false });
    expect(normalizeToolResult(['a', 1])).toEqual({ output: { type: 'text', value: '["a",1]' }, text: '["a",1]', isError: false, truncated: false });
    expect(normalizeToolResult(null).output).toEqual({ type: 'text', value: 'null' });
    expect(normalizeToolResult({ status: 'ok', build: 7 })).toEqual({
      output: { type: 'text', value: '{"status":"ok","build":7}' }, text: '{"status":"ok","build":7}', isError: false, truncated: false, structuredContent: { status: 'ok', build: 7 },
    });
  });

  it('tells the envelope from a JSON object that only has a content array', () => {
    expect(isToolResultContent({ content: [{ type: 'text', text: 'a' }], isError: true })).toBe(true);
    expect(isToolResultContent({ content: [1, 2], total: 2 })).toBe(false);
    expect(isToolResultContent({ content: [{ type: 'text', text: 'a' }], total: 2 })).toBe(false);
    expect(normalizeToolResult({ content: [1, 2], total: 2 }).output).toEqual({ type: 'text', value: '{"content":[1,2],"total":2}' });
  });

  it('sends envelope text as text and isError as an error; structuredContent is kept for callers', () => {
    expect(normalizeToolResult({ content: [{ type: 'text', text: 'Promoted.' }] }).output).toEqual({ type: 'text', value: 'Promoted.' });
    expect(normalizeToolResult({ content: [{ type: 'text', text: 'canary unhealthy' }], isError: true })).toMatchObject({ output: { type: 'error-text', value: 'canary unhealthy' }, isError: true });
    const structured = normalizeToolResult({ content: [{ type: 'text', text: 'Promoted.' }], structuredContent: { build: 7 } });
    expect(structured).toMatchObject({ output: { type: 'text', value: 'Promoted.' }, structuredContent: { build: 7 } });
  });

  it('custom tools: structuredContent also goes to the model as JSON text, once', () => {
    expect(withStructuredContentForModel({ content: [{ type: 'text', text: 'Promoted.' }], structuredContent: { build: 7 } })).toEqual({
      content: [{ type: 'text', text: 'Promoted.' }, { type: 'text', text: '{"build":7}' }], structuredContent: { build: 7 },
    });
    const already = { content: [{ type: 'text' as const, text: '{"build":7}' }], structuredContent: { build: 7 } };
    expect(withStructuredContentForModel(already)).toBe(already);
    expect(withStructuredContentForModel('text')).toBe('text');
  });

  it('sends images with mimeType, the older mediaType, or the type their bytes show', () => {
    const result = normalizeToolResult({
      content: [
        { type: 'text', text: 'Screens:' },
        { type: 'image', data: png, mimeType: 'image/png' },
        { type: 'image', data: jpeg, mediaType: 'image/jpeg' },
        { type: 'image', data: jpeg },
        { type: 'image', data: 'AAAA' },
      ],
    });
    expect(result.output).toEqual({
      type: 'content',
      value: [
        { type: 'text', text: 'Screens:' },
        { type: 'image', data: png, mediaType: 'image/png' },
        { type: 'image', data: jpeg, mediaType: 'image/jpeg' },
        { type: 'image', data: jpeg, mediaType: 'image/jpeg' },
        { type: 'image', data: 'AAAA', mediaType: 'image/png' },
      ],
    });
    expect(result.text).toBe('Screens:\n[image image/png]\n[image image/jpeg]\n[image image/jpeg]\n[image image/png]');
  });

  it('keeps the error flag of an envelope with images, and trusts the bytes over a wrong declared type', () => {
    const result = normalizeToolResult({ content: [{ type: 'image', data: png, mimeType: 'image/jpeg' }], isError: true });
    expect(result.output).toEqual({ type: 'content', value: [{ type: 'image', data: png, mediaType: 'image/png' }], isError: true });
    expect(result.isError).toBe(true);
  });

  it('says in text what no model can read: bad base64, unsupported types, unknown parts', () => {
    const result = normalizeToolResult({ content: [{ type: 'image', data: 'not base64!' }, { type: 'image', data: png, mimeType: 'image/svg+xml' }, { type: 'audio', data: 'AAAA' } as never] });
    expect(result.output.type).toBe('text');
    expect(result.text).toContain('not base64');
    expect(result.text).toContain('image/svg+xml image, which the model cannot read');
    expect(result.text).toContain('audio part');
  });

  it('cuts long text and reports it', () => {
    const result = normalizeToolResult('x'.repeat(maxToolResultChars + 10));
    expect(result.truncated).toBe(true);
    expect(result.text.length).toBeLessThan(maxToolResultChars + 200);
  });
});
