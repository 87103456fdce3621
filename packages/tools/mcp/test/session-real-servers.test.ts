// biome-ignore-all lint/suspicious/noTemplateCurlyInString: configs with literal ${...} placeholders
// The session with the real connection and real servers from the npm registry, declared in real
// config files (started with `node <their bin>`, never downloaded at test time).
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { McpProjectServer, McpSession, McpWarning, ToolDefinition } from '@cairn/core';
import { createToolContext } from '@cairn/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mcpPlugin } from '../src/plugin.js';
import { everythingServerPath, filesystemServerPath } from './helpers/fixture-servers.js';
import { findServerProcesses, leftoverServerProcesses, testTag, testTagVariable } from './helpers/server-processes.js';

let root: string;
let cwd: string;
let homeDir: string;
let session: McpSession | undefined;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'cairn-mcp-real-session-')));
  cwd = join(root, 'repo');
  homeDir = join(root, 'home');
  await mkdir(cwd, { recursive: true });
  await writeFile(join(cwd, 'notes.txt'), 'hello');
});

afterEach(async () => {
  await session?.close();
  session = undefined;
  await rm(root, { recursive: true, force: true });
});

async function writeServers(path: string, servers: Record<string, unknown>): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, JSON.stringify({ mcpServers: servers }, null, 2));
}

const ourServers = () => findServerProcesses({ tag: testTag });

function tool(tools: readonly ToolDefinition[], name: string): ToolDefinition {
  const found = tools.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no tool ${name} among ${tools.map((candidate) => candidate.name).join(', ')}`);
  return found;
}

describe('McpSession with real servers from config files', () => {
  it('starts a trusted project server and a user server, with placeholders expanded, shares them across runs, and leaves no process after close', async () => {
    // Commands and paths come from the environment, as a committed config would write them.
    const tagged = { [testTagVariable]: `\${env:${testTagVariable}}` };
    await writeServers(join(cwd, '.cursor/mcp.json'), { everything: { command: '${env:NODE_BIN}', args: ['${EVERYTHING_BIN}', 'stdio'], env: tagged } });
    await writeServers(join(homeDir, '.cursor/mcp.json'), { files: { command: '${env:NODE_BIN}', args: ['${FILESYSTEM_BIN}', '${workspaceFolder}'], env: tagged } });
    const env = { ...process.env, NODE_BIN: process.execPath, EVERYTHING_BIN: everythingServerPath, FILESYSTEM_BIN: filesystemServerPath, [testTagVariable]: testTag };
    const asked: McpProjectServer[] = [];
    session = mcpPlugin().mcp!.open({
      agentId: 'agent-real', cwd, env, projectServers: true, userServers: true, homeDir, cairnHome: join(homeDir, '.cairn'),
      trustProjectServer: (server) => {
        asked.push(server);
        return true;
      },
    });
    const warnings: McpWarning[] = [];
    const run = await session.forRun({ inline: undefined, signal: new AbortController().signal, warn: (warning) => warnings.push(warning) });
    expect(warnings).toEqual([]);
    expect(asked.map((server) => [server.name, server.config])).toEqual([['everything', { command: '${env:NODE_BIN}', args: ['${EVERYTHING_BIN}', 'stdio'], env: tagged }]]);

    const tools = run.tools();
    const echo = await tool(tools, 'mcp__everything__echo').execute({ message: 'through the session' }, createToolContext({ cwd }));
    expect(JSON.stringify(echo)).toContain('through the session');
    const listing = await tool(tools, 'mcp__files__list_directory').execute({ path: cwd }, createToolContext({ cwd }));
    expect(JSON.stringify(listing)).toContain('notes.txt');

    expect(session.status().map(({ name, origin, transport, state }) => ({ name, origin, transport, state }))).toEqual([
      { name: 'everything', origin: 'project', transport: 'stdio', state: 'ready' },
      { name: 'files', origin: 'user', transport: 'stdio', state: 'ready' },
    ]);
    const processes = ourServers().length;
    expect(processes).toBeGreaterThanOrEqual(2);

    const second = await session.forRun({ inline: undefined, signal: new AbortController().signal, warn: (warning) => warnings.push(warning) });
    expect(second.tools().map((candidate) => candidate.name)).toEqual(tools.map((candidate) => candidate.name));
    expect(ourServers()).toHaveLength(processes);

    await session.close();
    expect(session.status().map((entry) => entry.state)).toEqual(['closed', 'closed']);
    expect(await leftoverServerProcesses({ tag: testTag })).toEqual([]);
  });

  it('a server whose command does not exist is one warning with the connection\'s reason; the other server works', async () => {
    await writeServers(join(cwd, '.mcp.json'), {
      missing: { type: 'stdio', command: join(root, 'no-such-program') },
      everything: { type: 'stdio', command: process.execPath, args: [everythingServerPath], env: { [testTagVariable]: testTag } },
    });
    session = mcpPlugin().mcp!.open({ agentId: 'agent-real', cwd, env: process.env, projectServers: true, userServers: false, homeDir, cairnHome: join(homeDir, '.cairn') });
    const warnings: McpWarning[] = [];
    const run = await session.forRun({ inline: undefined, signal: new AbortController().signal, warn: (warning) => warnings.push(warning) });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.server).toBe('missing');
    expect(warnings[0]!.message).toMatch(/^MCP server "missing" could not start: .+\. The run goes on without its tools \(agent\.reload\(\) tries it again\)$/);
    expect(run.tools().some((candidate) => candidate.name === 'mcp__everything__echo')).toBe(true);
    expect(run.tools().every((candidate) => candidate.name.startsWith('mcp__everything__'))).toBe(true);
    await session.close();
    expect(await leftoverServerProcesses({ tag: testTag })).toEqual([]);
  });
});
