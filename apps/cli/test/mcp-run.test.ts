import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChatCompletionsServer } from '@cairn/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { io } from './cli-io.js';
import { alive, pids } from './mcp-server-pids.js';

const fixture = fileURLToPath(new URL('./mcp-fixture-server.mjs', import.meta.url));
const temp = (prefix: string) => mkdtemp(join(tmpdir(), prefix));

// The agent of a CLI run reads its environment from the process, as on a user's machine.
const saved = { HOME: process.env.HOME, CAIRN_HOME: process.env.CAIRN_HOME, OPENAI_BASE_URL: process.env.OPENAI_BASE_URL };
afterEach(() => {
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

describe('cairn "prompt" with MCP config files', () => {
  it('leaves an untrusted project server out (no terminal), uses user servers, and starts the project server once trusted', async () => {
    const cwd = await temp('cairn-ws-');
    const home = await temp('cairn-user-');
    const started = { project: join(home, 'project-started'), user: join(home, 'user-started') };
    await mkdir(join(cwd, '.cursor'));
    await mkdir(join(home, '.cairn'));
    await writeFile(join(cwd, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { tiny: { command: process.execPath, args: [fixture, '--started', started.project] } } }));
    await writeFile(join(home, '.cairn', 'mcp.json'), JSON.stringify({ mcpServers: { notes: { command: process.execPath, args: [fixture, '--started', started.user, '--tool', 'note'] } } }));
    const server = await startChatCompletionsServer([{ text: 'first' }, { text: 'second' }]);
    Object.assign(process.env, { HOME: home, CAIRN_HOME: join(home, '.cairn'), OPENAI_BASE_URL: server.url });
    const offered = (index: number) => ((server.requests[index]?.tools ?? []) as Array<{ function: { name: string } }>).map((tool) => tool.function.name);
    try {
      const untrusted = io(['--cwd', cwd, '--model', 'openai/gpt-4.1-mini', 'hello']);
      expect(await untrusted.run()).toBe(0);
      expect(untrusted.out()).toBe('first\n');
      expect(untrusted.err()).toMatch(/project MCP server "tiny" \(\.cursor[/\\]mcp\.json\) is not trusted in this workspace and was left out; .*cairn mcp trust --cwd/);
      expect(offered(0)).toContain('mcp__notes__note');
      expect(offered(0).some((name) => name.startsWith('mcp__tiny__'))).toBe(false);
      expect(await pids(started.project)).toEqual([]);

      expect(await io(['mcp', 'trust', '--cwd', cwd, '--yes']).run()).toBe(0);
      const trusted = io(['--cwd', cwd, '--model', 'openai/gpt-4.1-mini', 'hello']);
      expect(await trusted.run()).toBe(0);
      expect(trusted.out()).toBe('second\n');
      expect(trusted.err()).not.toMatch(/not trusted/);
      expect(offered(1)).toEqual(expect.arrayContaining(['mcp__notes__note', 'mcp__tiny__echo']));
      expect(server.problems).toEqual([]);
      // The agent closed its servers when the command ended.
      for (const pid of [...(await pids(started.project)), ...(await pids(started.user))]) expect(alive(pid), `server ${pid} still runs`).toBe(false);
    } finally {
      await server.close();
    }
  });
});
