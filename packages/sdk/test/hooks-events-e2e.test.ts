// Every hook event of both file formats through the SDK's Agent with its real tools (files, the
// sandboxed shell, an MCP server from npm): one recorder script per format logs each payload, the
// way a user's existing Claude Code or Cursor hook script would receive it.
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type ScriptedTurn, scriptedModel, scriptedProvider } from '@cairn/core/testing';
import { describe, expect, it } from 'vitest';
import { createCairn, createMemoryStore, defaultPlugins } from '../src/index.js';
import { expectNoServerLeft, isolatedEnv, servers, tempFolder } from './mcp-helpers.js';

// Claude Code: record, and ask for approval of shell commands (hookSpecificOutput.permissionDecision).
const claudeRecorder = `#!/bin/sh
payload=$(cat)
printf '%s\\n' "$payload" >> "$CLAUDE_PROJECT_DIR/claude-events.jsonl"
case "$payload" in
  *'"hook_event_name":"PreToolUse"'*'"tool_name":"Bash"'*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"shell commands need a person"}}' ;;
esac
exit 0
`;
// Cursor: record, and allow every before* event with permission JSON.
const cursorRecorder = `#!/bin/sh
payload=$(cat)
printf '%s\\n' "$payload" >> "$CURSOR_PROJECT_DIR/cursor-events.jsonl"
case "$payload" in
  *'"hook_event_name":"before'*) echo '{"permission":"allow"}' ;;
esac
exit 0
`;

const claudeEvents = ['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'UserPromptSubmit', 'SessionStart', 'SessionEnd', 'Stop', 'PreCompact', 'Notification'];
const cursorEvents = ['beforeShellExecution', 'beforeMCPExecution', 'beforeReadFile', 'afterFileEdit', 'beforeSubmitPrompt', 'stop'];

async function projectWithRecorders(): Promise<string> {
  const cwd = await tempFolder('cairn-hook-events-');
  for (const [name, text] of [['claude-recorder.sh', claudeRecorder], ['cursor-recorder.sh', cursorRecorder]] as const) {
    await writeFile(join(cwd, name), text);
    await chmod(join(cwd, name), 0o755);
  }
  await mkdir(join(cwd, '.claude'));
  const claudeHook = [{ hooks: [{ type: 'command', command: join(cwd, 'claude-recorder.sh') }] }];
  await writeFile(join(cwd, '.claude', 'settings.json'), JSON.stringify({ hooks: Object.fromEntries(claudeEvents.map((event) => [event, claudeHook])) }));
  await mkdir(join(cwd, '.cursor'));
  const cursorHook = [{ command: join(cwd, 'cursor-recorder.sh') }];
  await writeFile(join(cwd, '.cursor', 'hooks.json'), JSON.stringify({ version: 1, hooks: Object.fromEntries(cursorEvents.map((event) => [event, cursorHook])) }));
  await writeFile(join(cwd, 'a.txt'), 'alpha\n');
  return cwd;
}

const records = async (cwd: string, file: string): Promise<Array<Record<string, any>>> =>
  (await readFile(join(cwd, file), 'utf8')).trim().split('\n').map((line) => JSON.parse(line));
const call = (name: string, args: unknown): ScriptedTurn => ({ toolCalls: [{ name, args }] });

describe('hook events of both file formats, with the real tools', () => {
  it('each event reaches the scripts with the field names those tools use', async () => {
    const cwd = await projectWithRecorders();
    const model = scriptedModel([
      call('read_file', { path: 'a.txt' }),
      call('write', { path: 'b.txt', contents: 'beta\n' }),
      call('read_file', { path: 'missing.txt' }),
      call('run_terminal_cmd', { command: 'echo hi' }),
      call('mcp__everything__echo', { message: 'hello' }),
      { text: 'all done' },
    ]);
    const { Agent } = createCairn({ plugins: [...defaultPlugins, { name: 'scripted', providers: [scriptedProvider({ m: model })] }] });
    const approvals: string[] = [];
    const agent = await Agent.create({
      model: 'scripted/m',
      env: isolatedEnv(await tempFolder('cairn-hook-events-home-')),
      mcpServers: { everything: servers.everything() },
      canUseTool: (request) => {
        approvals.push(request.toolName);
        return 'allow';
      },
      local: { cwd, store: createMemoryStore(), settingSources: ['project'], sandboxOptions: { enabled: true } },
    });
    expect(await (await agent.send('Work through the files.')).wait()).toMatchObject({ status: 'finished', result: 'all done' });
    await agent.close();
    await expectNoServerLeft();
    expect(approvals).toEqual(['run_terminal_cmd']);

    const claude = await records(cwd, 'claude-events.jsonl');
    const base = { session_id: agent.agentId, cwd, permission_mode: 'default', transcript_path: expect.stringMatching(/\.jsonl$/) };
    const claudeOf = (event: string, tool?: string) => claude.filter((entry) => entry.hook_event_name === event && (!tool || entry.tool_name === tool));
    expect(claudeOf('SessionStart')).toEqual([expect.objectContaining({ ...base, source: 'startup' })]);
    expect(claudeOf('UserPromptSubmit')).toEqual([expect.objectContaining({ ...base, prompt: 'Work through the files.' })]);
    expect(claudeOf('PreToolUse').map((entry) => entry.tool_name)).toEqual(['Read', 'Write', 'Read', 'Bash', 'mcp__everything__echo']);
    expect(claudeOf('PreToolUse', 'Write')[0]).toMatchObject({ tool_input: { file_path: 'b.txt', content: 'beta\n' }, tool_use_id: expect.any(String) });
    expect(claudeOf('PostToolUse', 'Read')[0]).toMatchObject({ tool_response: { type: 'text', file: { filePath: join(cwd, 'a.txt'), content: expect.stringContaining('alpha') } } });
    expect(claudeOf('PostToolUse', 'Write')[0]).toMatchObject({ tool_response: { filePath: join(cwd, 'b.txt'), success: true } });
    expect(claudeOf('PostToolUse', 'Bash')[0]).toMatchObject({ tool_input: { command: 'echo hi' }, tool_response: { stdout: 'hi\n', stderr: '', interrupted: false } });
    expect(claudeOf('PostToolUse', 'mcp__everything__echo')[0]!.tool_response).toContain('Echo: hello');
    expect(claudeOf('PostToolUseFailure', 'Read')).toEqual([expect.objectContaining({ tool_input: { file_path: 'missing.txt' }, error: expect.stringMatching(/missing\.txt/) })]);
    expect(claudeOf('Notification')).toEqual([expect.objectContaining({ notification_type: 'permission_prompt', message: expect.stringContaining('shell commands need a person') })]);
    expect(claudeOf('Stop')).toEqual([expect.objectContaining({ stop_hook_active: false })]);
    expect(claudeOf('SessionEnd')).toEqual([expect.objectContaining({ session_id: agent.agentId, reason: 'other' })]);

    const cursor = await records(cwd, 'cursor-events.jsonl');
    const cursorOf = (event: string) => cursor.filter((entry) => entry.hook_event_name === event);
    const cursorBase = { conversation_id: agent.agentId, workspace_roots: [cwd], generation_id: expect.any(String) };
    expect(cursorOf('beforeSubmitPrompt')).toEqual([expect.objectContaining({ ...cursorBase, prompt: 'Work through the files.' })]);
    expect(cursorOf('beforeReadFile').map((entry) => [entry.file_path, entry.content])).toEqual([[join(cwd, 'a.txt'), 'alpha\n'], [join(cwd, 'missing.txt'), '']]);
    expect(cursorOf('afterFileEdit')).toEqual([expect.objectContaining({ file_path: join(cwd, 'b.txt'), edits: [{ old_string: '', new_string: 'beta\n' }] })]);
    expect(cursorOf('beforeShellExecution')).toEqual([expect.objectContaining({ command: 'echo hi', cwd })]);
    expect(cursorOf('beforeMCPExecution')).toEqual([expect.objectContaining({ server: 'everything', tool_name: 'echo', tool_input: { message: 'hello' } })]);
    expect(cursorOf('stop')).toEqual([expect.objectContaining({ status: 'completed', loop_count: 0 })]);
  });

  it('PreCompact reaches a Claude Code script when the conversation is compacted', async () => {
    const cwd = await projectWithRecorders();
    // Two answers of about 28 000 tokens each against a budget of 40 000: the third send finds the
    // conversation over it, summarises the first exchange and keeps the newest one.
    const big = (word: string) => ({ text: `${word} answer words `.repeat(6000) });
    const model = scriptedModel([big('first'), big('second'), { text: 'summary of the conversation' }, { text: 'third answer' }], { repeatLast: true });
    const { Agent } = createCairn({ plugins: [...defaultPlugins, { name: 'scripted', providers: [scriptedProvider({ m: model })] }] });
    const agent = await Agent.create({
      model: 'scripted/m', env: isolatedEnv(await tempFolder('cairn-hook-events-home-')), compaction: { maxTokens: 40_000, keepRecentTurns: 1 },
      local: { cwd, store: createMemoryStore(), settingSources: ['project'] },
    });
    for (const prompt of ['first', 'second']) expect((await (await agent.send(prompt)).wait()).status).toBe('finished');
    const third = await (await agent.send('third')).wait();
    expect(third, JSON.stringify(third.error)).toMatchObject({ status: 'finished', result: 'third answer' });
    expect(JSON.stringify(model.calls[3]?.prompt)).toContain('summary of the conversation');
    await agent.close();
    const preCompact = (await records(cwd, 'claude-events.jsonl')).filter((entry) => entry.hook_event_name === 'PreCompact');
    expect(preCompact.length).toBeGreaterThan(0);
    expect(preCompact[0]).toMatchObject({ session_id: agent.agentId, cwd, trigger: 'auto', custom_instructions: '' });
  });
});
