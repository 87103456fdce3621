import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigurationError, createMemoryStore, defineTool } from '../src/index.js';
import { parseHookFile } from '../src/hooks/hook-config.js';
import { HookDispatcher } from '../src/hooks/hook-dispatcher.js';
import { loadHookFiles } from '../src/hooks/hook-files.js';
import { HookTranscript } from '../src/hooks/hook-transcript.js';
import { subagentHooks } from '../src/hooks/subagent-hooks.js';
import { createCairn } from '../src/node.js';
import { scriptedModel, scriptedProvider } from '../src/testing.js';
import { tempWorkspace } from './helpers.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), 'fixtures/hooks');
const place = { file: '/w/.cairn/hooks.json', layer: 'project' as const, cwd: '/w', format: 'detect' as const };

describe('hooks files', () => {
  it('.cairn/hooks.json is read as Cursor or Claude Code format by its shape', () => {
    const cursor = parseHookFile({ version: 1, hooks: { beforeShellExecution: [{ command: './a.sh' }], afterAgentThought: [{ command: './b.sh' }] } }, place);
    expect(cursor?.format).toBe('cursor');
    expect(cursor?.commands).toEqual([expect.objectContaining({ event: 'preToolUse', toolFilter: 'shell', nativeEvent: 'beforeShellExecution', timeoutMs: 60_000 })]);
    expect(cursor?.unsupported).toEqual(['Cursor event "afterAgentThought"']);
    const claude = parseHookFile({ hooks: { PreToolUse: [{ matcher: 'Edit|Write', hooks: [{ type: 'command', command: './c.sh', timeout: 5 }, { type: 'prompt', prompt: 'x' }] }] } }, place);
    expect(claude?.format).toBe('claude');
    expect(claude?.commands).toEqual([expect.objectContaining({ event: 'preToolUse', matcher: 'Edit|Write', timeoutMs: 5000 })]);
    expect(claude?.unsupported).toHaveLength(1);
  });

  it('a malformed file is a ConfigurationError naming the file and the entry', () => {
    expect(() => parseHookFile({ hooks: { PreToolUse: [{ hooks: [{ type: 'command' }] }] } }, place)).toThrow(/\/w\/.cairn\/hooks.json: hooks.PreToolUse\[0\].hooks\[0\].command must be a non-empty string/);
    expect(() => parseHookFile({ hooks: { PreToolUse: [{ matcher: '(', hooks: [] }] } }, place)).toThrow(ConfigurationError);
    expect(parseHookFile({ permissions: {} }, place)).toBeUndefined();
  });

  it('loads the layers asked for, project first; the hash follows the hooks, not the formatting', async () => {
    const cwd = await tempWorkspace('cairn-hooks-files-');
    const home = await tempWorkspace('cairn-hooks-home-');
    const hooks = { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] } };
    await mkdir(join(cwd, '.claude'), { recursive: true });
    await writeFile(join(cwd, '.claude/settings.json'), JSON.stringify(hooks));
    await mkdir(join(home, '.cursor'), { recursive: true });
    await writeFile(join(home, '.cursor/hooks.json'), JSON.stringify({ version: 1, hooks: { stop: [{ command: './s.sh' }] } }));
    const both = await loadHookFiles({ cwd, project: true, user: true, home, cairnHome: join(home, '.cairn') });
    expect(both.map((file) => [file.layer, file.format])).toEqual([['project', 'claude'], ['user', 'cursor']]);
    // Cursor resolves a user-level file's commands from ~/.cursor.
    expect(both[1]?.hookCommands[0]?.cwd).toBe(join(home, '.cursor'));
    await writeFile(join(cwd, '.claude/settings.json'), JSON.stringify(hooks, null, 2));
    const again = await loadHookFiles({ cwd, project: true, user: false, home, cairnHome: join(home, '.cairn') });
    expect(again[0]?.hash).toBe(both[0]?.hash);
    await writeFile(join(cwd, '.claude/settings.json'), '{ not json');
    await expect(loadHookFiles({ cwd, project: true, user: false, home, cairnHome: home })).rejects.toThrow(/settings.json is not valid JSON/);
  });
});

describe('subagentHooks', () => {
  it("a subagent's tool calls go through the parent's hooks, named as Claude Code names them", async () => {
    const cwd = await tempWorkspace('cairn-hooks-sub-');
    await mkdir(join(cwd, '.claude'), { recursive: true });
    await writeFile(join(cwd, '.claude/settings.json'), JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: join(fixtures, 'block-rm-rf.sh') }] }] } }));
    const [file] = await loadHookFiles({ cwd, project: true, user: false, home: cwd, cairnHome: cwd });
    const warnings: string[] = [];
    const parent = new HookDispatcher({ commands: file?.hookCommands ?? [], env: process.env, cwd, transcript: HookTranscript.forAgent('parent-agent'), warn: (text) => warnings.push(text) });
    const ran: string[] = [];
    const shell = defineTool({ id: 'shell', name: 'run_terminal_cmd', description: 'Run.', inputSchema: z.object({ command: z.string() }), readOnly: false, category: 'shell', execute: ({ command }: { command: string }) => {
      ran.push(command);
      return 'ok';
    } });
    const scripted = scriptedModel([{ toolCalls: [{ name: 'run_terminal_cmd', args: { command: 'rm -rf /' } }] }, { text: 'done' }]);
    const { Agent } = createCairn({ plugins: [{ name: 'test', providers: [scriptedProvider({ m: scripted })], tools: [shell] }] });
    const child = await Agent.create({ model: 'scripted/m', local: { cwd, store: createMemoryStore() }, hooks: subagentHooks(parent, { parentAgentId: 'parent-agent', subagentId: 'child-1', subagentType: 'explore' }) });
    expect((await (await child.send('clean up')).wait()).status).toBe('finished');
    expect(ran).toEqual([]);
    expect(JSON.stringify(scripted.calls[1]?.prompt)).toContain('rm -rf is not allowed in this project');
    const payload = JSON.parse((await readFile(join(cwd, 'payloads.jsonl'), 'utf8')).trim()) as Record<string, unknown>;
    expect(payload).toMatchObject({ session_id: 'parent-agent', agent_id: 'child-1', agent_type: 'explore', tool_name: 'Bash' });
    expect(warnings).toEqual([]);
  });
});
