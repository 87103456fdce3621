import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ToolResultContent } from '@cairn/core/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capLargeResult, maxResultTextChars } from '../src/tools/large-result.js';
import { callTool, textOf, useConnections } from './helpers/connections.js';
import { fixtureConfig, removeFolder, scratchFolder } from './helpers/fixture-servers.js';

let stateDir: string;
let resultDir: string;
beforeAll(() => {
  stateDir = scratchFolder();
  resultDir = scratchFolder();
});
afterAll(() => {
  removeFolder(stateDir);
  removeFolder(resultDir);
});

const connect = useConnections();
const place = () => ({ resultDir, agentId: 'agent-7', server: 'fx', tool: 'unit', toolCallId: 'call-9' });

describe('tool results', () => {
  it('keeps text, images, structured content; describes audio, links and resources; saves binary parts', async () => {
    const connection = connect('fx', fixtureConfig(stateDir), { resultDir });
    await connection.start();
    const result = await callTool(connection, 'mcp__fx__mixed', {}, { agentId: 'agent-1', toolCallId: 'call-mixed' });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual({ ok: true, count: 6 });
    const [text, image, audio, link, embedded, blob] = result.content;
    expect(text).toEqual({ type: 'text', text: 'plain text' });
    expect(image).toMatchObject({ type: 'image', mimeType: 'image/png' });
    const audioPath = join(resultDir, 'agent-1', 'fx-mixed-call-mixed-audio-2.bin');
    expect(audio).toEqual({ type: 'text', text: `[audio (audio/wav, 12 bytes, saved to ${audioPath})]` });
    expect(readFileSync(audioPath, 'utf8')).toBe('RIFF....WAVE');
    expect(link).toEqual({ type: 'text', text: '[resource link: readme <fixture://notes/readme> (text/plain; The readme). Read it with mcp__fx__read_resource.]' });
    expect(embedded).toEqual({ type: 'text', text: '[resource <fixture://notes/inline> (text/plain)]\nembedded text' });
    expect(blob).toEqual({ type: 'text', text: `[resource <fixture://data/inline-blob> (application/zip, 3 bytes, saved to ${join(resultDir, 'agent-1', 'fx-mixed-call-mixed-resource-5.bin')})]` });
  });

  it('keeps isError', async () => {
    const connection = connect('fx', fixtureConfig(stateDir), { resultDir });
    await connection.start();
    const result = await callTool(connection, 'mcp__fx__fail');
    expect(result).toEqual({ content: [{ type: 'text', text: 'it went wrong' }], isError: true });
  });

  it('caps a 10 MB result head and tail, says how much was cut and where the whole result is', async () => {
    const connection = connect('fx', fixtureConfig(stateDir), { resultDir });
    await connection.start();
    const size = 10 * 1024 * 1024;
    const result = await callTool(connection, 'mcp__fx__big', { bytes: size }, { agentId: 'agent-1', toolCallId: 'call-big' });
    const text = textOf(result);
    const saved = join(resultDir, 'agent-1', 'fx-big-call-big.txt');
    expect(result.truncated).toBe(true);
    expect(text.startsWith('HEAD-MARK\n')).toBe(true);
    expect(text.endsWith('\nTAIL-MARK')).toBe(true);
    expect(text).toContain(`[... ${(size - maxResultTextChars).toLocaleString('en-US')} of ${size.toLocaleString('en-US')} characters cut here; the whole result is in ${saved} ...]`);
    expect(text.length).toBeLessThan(maxResultTextChars + 300);
    expect(statSync(saved).size).toBe(size);
    expect(statSync(saved).mode & 0o777).toBe(0o600);
  });

  it('leaves a small result alone', async () => {
    const small: ToolResultContent = { content: [{ type: 'text', text: 'short' }], structuredContent: { a: 1 } };
    expect(await capLargeResult(small, place())).toBe(small);
  });

  it('caps several text parts as one, and leaves out a huge structured result (saved)', async () => {
    const big: ToolResultContent = {
      content: [{ type: 'text', text: 'a'.repeat(60) }, { type: 'image', data: 'iVBOR', mimeType: 'image/png' }, { type: 'text', text: 'b'.repeat(60) }],
      structuredContent: { rows: 'c'.repeat(200) },
    };
    const capped = await capLargeResult(big, place(), 100);
    expect(capped.truncated).toBe(true);
    expect(capped.structuredContent).toBeUndefined();
    expect(capped.content[0]).toMatchObject({ type: 'text' });
    expect((capped.content[0] as { text: string }).text).toMatch(/^a{60}\nb{19}\n\n\[\.\.\. 21 of 121 characters cut here; the whole result is in .*fx-unit-call-9\.txt \.\.\.\]\n\nb{20}$/);
    expect(capped.content[1]).toEqual({ type: 'image', data: 'iVBOR', mimeType: 'image/png' });
    expect(capped.content[2]).toMatchObject({ type: 'text', text: expect.stringContaining('The structured result (') });
    expect(readdirSync(join(resultDir, 'agent-7')).sort()).toEqual(['fx-unit-call-9.structured.json', 'fx-unit-call-9.txt']);
  });
});
