// The servers users install from the npm registry, started from devDependencies (never npx).
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { McpServerConfig } from '@cairn/core/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, findTool, textOf, useConnections } from './helpers/connections.js';
import { everythingServerPath, filesystemServerPath, type RunningHttpServer, removeFolder, scratchFolder, startEverythingServer } from './helpers/fixture-servers.js';
import { leftoverServerProcesses, taggedEnv, testTag } from './helpers/server-processes.js';

const connect = useConnections();

/** Connect, list, call echo, list resources and read the first one: what every transport must carry. */
async function exerciseEverything(config: McpServerConfig, transport: 'stdio' | 'http' | 'sse') {
  const connection = connect('everything', config);
  await connection.start();
  expect(connection.transport).toBe(transport);
  const names = connection.tools().map((tool) => tool.name);
  expect(names).toEqual(expect.arrayContaining(['mcp__everything__echo', 'mcp__everything__get-sum', 'mcp__everything__list_resources', 'mcp__everything__read_resource']));
  expect(findTool(connection, 'mcp__everything__echo').readOnly).toBe(true);
  expect(textOf(await callTool(connection, 'mcp__everything__echo', { message: 'hello' }))).toBe('Echo: hello');

  const listing = textOf(await callTool(connection, 'mcp__everything__list_resources'));
  const uri = /- (demo:\/\/resource\/static\/document\/\S+)/.exec(listing)?.[1];
  expect(uri, listing).toBeDefined();
  const read = await callTool(connection, 'mcp__everything__read_resource', { uri });
  expect(read.isError).toBeUndefined();
  expect(textOf(read)).toContain(`[${uri} (`);
  await connection.close();
}

describe('@modelcontextprotocol/server-everything', () => {
  it('over stdio', async () => {
    await exerciseEverything({ command: process.execPath, args: [everythingServerPath, 'stdio'], env: taggedEnv }, 'stdio');
  });

  describe('over HTTP', () => {
    let streamable: RunningHttpServer;
    let sse: RunningHttpServer;
    beforeAll(async () => {
      [streamable, sse] = await Promise.all([startEverythingServer('streamableHttp'), startEverythingServer('sse')]);
    });
    afterAll(async () => {
      await Promise.all([streamable?.close(), sse?.close()]);
    });

    it('over streamable HTTP', async () => {
      await exerciseEverything({ type: 'http', url: `${streamable.url}/mcp` }, 'http');
    });

    it('over SSE', async () => {
      await exerciseEverything({ type: 'sse', url: `${sse.url}/sse` }, 'sse');
    });
  });
});

describe('@modelcontextprotocol/server-filesystem', () => {
  let root: string;
  beforeAll(() => {
    root = realpathSync(scratchFolder());
    mkdirSync(join(root, 'docs'));
    writeFileSync(join(root, 'docs', 'notes.txt'), 'line one\nline two\n');
  });
  afterAll(() => removeFolder(root));

  it('over stdio: read-only tools marked, a file read with its structured content', async () => {
    const connection = connect('files', { command: process.execPath, args: [filesystemServerPath, root], env: taggedEnv });
    await connection.start();
    expect(findTool(connection, 'mcp__files__read_text_file').readOnly).toBe(true);
    expect(findTool(connection, 'mcp__files__write_file').readOnly).toBe(false);
    const read = await callTool(connection, 'mcp__files__read_text_file', { path: join(root, 'docs', 'notes.txt') });
    expect(textOf(read)).toBe('line one\nline two\n');
    expect(read.structuredContent).toEqual({ content: 'line one\nline two\n' });
    const listing = await callTool(connection, 'mcp__files__list_directory', { path: root });
    expect(textOf(listing)).toContain('[DIR] docs');
    await connection.close();
  });
});

it('leaves no server process of these tests behind', async () => {
  expect(await leftoverServerProcesses({ tag: testTag })).toEqual([]);
});
