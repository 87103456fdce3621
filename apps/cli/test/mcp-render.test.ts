import { describe, expect, it } from 'vitest';
import type { SDKToolUseMessage } from '@cairn/core/spec';
import { createTextRenderer } from '../src/render/run-renderer.js';
import { capturedOutput } from './cli-io.js';

function target() {
  return { ...capturedOutput(), color: false };
}

describe('the run renderer with MCP servers', () => {
  it('shows a warning update on stderr on a line of its own, after any open answer line', () => {
    const io = target();
    const renderer = createTextRenderer(io);
    renderer.onDelta({ type: 'text-delta', text: 'Looking' });
    renderer.onDelta({ type: 'warning', source: 'mcp', server: 'github', message: 'MCP server "github" failed to start: spawn ENOENT' });
    renderer.finish();
    expect(io.err()).toBe('! MCP server "github" failed to start: spawn ENOENT\n');
    expect(io.out()).toBe('Looking\n');
  });

  it('shows an MCP tool call like any other: its name, its main argument, its error', () => {
    const io = target();
    const renderer = createTextRenderer(io);
    const call = { type: 'tool_call', agent_id: 'a', run_id: 'r', call_id: 'c1', name: 'mcp__filesystem__read_text_file', args: { path: 'NOTES.md' } } as const;
    const message = (extra: Partial<SDKToolUseMessage>): SDKToolUseMessage => ({ ...call, status: 'running', ...extra });
    renderer.onMessage(message({}));
    renderer.onMessage(message({ status: 'completed', result: 'Ship it.' }));
    renderer.onMessage(message({ call_id: 'c2', status: 'error', result: 'MCP server "filesystem" crashed during the call and was restarted' }));
    expect(io.err()).toBe(
      '✓ mcp__filesystem__read_text_file NOTES.md\n✗ mcp__filesystem__read_text_file NOTES.md — MCP server "filesystem" crashed during the call and was restarted\n',
    );
  });
});
