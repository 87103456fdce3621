import { describe, expect, it } from 'vitest';
import type { HookCommand } from './hook-config.js';
import { hookPayload } from './hook-payloads.js';

const postToolUse = { event: 'postToolUse', nativeEvent: 'PostToolUse', format: 'claude', command: 'true', timeoutMs: 1000, file: '/w/.claude/settings.json', layer: 'project', cwd: '/w' } as HookCommand;
const base = { agentId: 'agent-1', runId: 'run-1', cwd: '/w', mode: 'agent', toolCallId: 'call-1', category: 'fs' };
const payloadOf = (input: Record<string, unknown>) => hookPayload(postToolUse, { name: 'postToolUse', input: { ...base, ...input } as never, transcriptPath: '/t.jsonl' });

describe("Claude Code's tool_response shapes", () => {
  it('Bash: stdout from the structured result, with stderr, interrupted and isImage', () => {
    const payload = payloadOf({ toolId: 'shell', toolName: 'run_terminal_cmd', category: 'shell', input: { command: 'echo hi' }, output: 'hi\n\nExit code 0', structuredContent: { output: 'hi\n', exitCode: 0, timedOut: false } });
    expect(payload).toMatchObject({ tool_name: 'Bash', tool_input: { command: 'echo hi' }, tool_response: { stdout: 'hi\n', stderr: '', interrupted: false, isImage: false } });
  });

  it('Write and Edit: the absolute filePath and success; Read: the file content', () => {
    expect(payloadOf({ toolId: 'write', toolName: 'write', input: { path: 'src/a.ts', contents: 'x' }, output: 'Wrote src/a.ts' })).toMatchObject({ tool_name: 'Write', tool_input: { file_path: 'src/a.ts', content: 'x' }, tool_response: { filePath: '/w/src/a.ts', success: true } });
    expect(payloadOf({ toolId: 'read', toolName: 'read_file', input: { path: 'a.txt' }, output: 'alpha' })).toMatchObject({ tool_name: 'Read', tool_response: { type: 'text', file: { filePath: '/w/a.txt', content: 'alpha' } } });
  });

  it('other tools: the text the model reads', () => {
    expect(payloadOf({ toolId: 'grep', toolName: 'grep', input: { pattern: 'x' }, output: 'a.txt:1:x' }).tool_response).toBe('a.txt:1:x');
  });
});
