import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { OutputCapture } from './output-capture.js';

describe('OutputCapture', () => {
  it('keeps short output whole, without a spill file', async () => {
    const capture = new OutputCapture({ headBytes: 8, tailBytes: 8, name: 'short' });
    capture.write(Buffer.from('0123456789'));
    expect(await capture.finish()).toEqual({ text: '0123456789', totalBytes: 10, truncated: false });
  });

  it('keeps head and tail of long output and spills all of it exactly once', async () => {
    const capture = new OutputCapture({ headBytes: 4, tailBytes: 4, name: `long-${Date.now()}` });
    for (const piece of ['ab', 'cdef', 'ghij', 'klmnop', 'qr']) capture.write(Buffer.from(piece));
    const result = await capture.finish();
    expect(result.truncated).toBe(true);
    expect(result.text.startsWith('abcd')).toBe(true);
    expect(result.text.endsWith('opqr')).toBe(true);
    expect(result.text).toContain('10 bytes omitted');
    expect(await readFile(result.spillFile as string, 'utf8')).toBe('abcdefghijklmnopqr');
  });

  it('decodes invalid UTF-8 and characters cut at the head boundary lossily', async () => {
    const capture = new OutputCapture({ headBytes: 4, tailBytes: 64, name: 'utf8' });
    capture.write(Buffer.from([0x61, 0x62, 0x63, 0xe2, 0x82, 0xac, 0xff, 0x64]));
    const { text } = await capture.finish();
    expect(text).toBe('abc\u20AC\uFFFDd');
    const cut = new OutputCapture({ headBytes: 4, tailBytes: 2, name: `cut-${Date.now()}` });
    cut.write(Buffer.from([0x61, 0x62, 0x63, 0xe2, 0x82, 0xac, 0x78, 0x79, 0x7a]));
    const truncated = await cut.finish();
    expect(truncated.text.startsWith('abc\uFFFD')).toBe(true);
    expect(truncated.text.endsWith('yz')).toBe(true);
  });
});
