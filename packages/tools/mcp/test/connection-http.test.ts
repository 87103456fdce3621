import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, textOf, useConnections } from './helpers/connections.js';
import { type RunningHttpServer, removeFolder, scratchFolder, startHttpFixture } from './helpers/fixture-servers.js';

let stateDir: string;
let server: RunningHttpServer;
const key = 'fixture-secret';
beforeAll(async () => {
  stateDir = scratchFolder();
  server = await startHttpFixture(stateDir, key);
});
afterAll(async () => {
  await server.close();
  removeFolder(stateDir);
});

const connect = useConnections();
const headersSeen = async (connection: ReturnType<typeof connect>) => JSON.parse(textOf(await callTool(connection, 'mcp__fx__headers'))) as Record<string, string>;

describe('remote connections', () => {
  it('speaks streamable HTTP to a url, with the config headers on every request', async () => {
    const connection = connect('fx', { type: 'http', url: `${server.url}/mcp`, headers: { 'x-fixture-key': key, 'x-extra': 'passed' } });
    await connection.start();
    expect(connection.transport).toBe('http');
    expect(await headersSeen(connection)).toMatchObject({ 'x-fixture-key': key, 'x-extra': 'passed' });
    expect(textOf(await callTool(connection, 'mcp__fx__echo', { text: 'over http' }))).toBe('echo: over http');
  });

  it('says to put credentials in headers when the server refuses the connection', async () => {
    const connection = connect('fx', { url: `${server.url}/mcp` });
    await expect(connection.start()).rejects.toThrow('MCP server "fx" could not start: the server refused the connection (HTTP 401): give it credentials in "headers", e.g. "Authorization": "Bearer <token>".');
    expect(connection.state).toBe('failed');
  });

  it('speaks legacy SSE when type is sse, headers on the stream and on every post', async () => {
    const connection = connect('fx', { type: 'sse', url: `${server.url}/sse`, headers: { 'x-fixture-key': key } });
    await connection.start();
    expect(connection.transport).toBe('sse');
    expect(await headersSeen(connection)).toMatchObject({ 'x-fixture-key': key });
    expect(textOf(await callTool(connection, 'mcp__fx__echo', { text: 'over sse' }))).toBe('echo: over sse');
  });

  it('falls back to SSE for a url without type when the server refuses streamable HTTP', async () => {
    const connection = connect('fx', { url: `${server.url}/sse`, headers: { 'x-fixture-key': key } });
    await connection.start();
    expect(connection.transport).toBe('sse');
    expect(textOf(await callTool(connection, 'mcp__fx__echo', { text: 'fell back' }))).toBe('echo: fell back');
  });

  it('does not fall back when the type says http', async () => {
    const connection = connect('fx', { type: 'http', url: `${server.url}/sse`, headers: { 'x-fixture-key': key } });
    await expect(connection.start()).rejects.toThrow('MCP server "fx" could not start: the server answered HTTP 404 (Error POSTing to endpoint: not found): check "url" (and "type": "sse" for a legacy SSE server).');
  });

  it('refuses OAuth settings at start with what to do instead', async () => {
    const connection = connect('docs', { type: 'http', url: `${server.url}/mcp`, auth: { CLIENT_ID: 'client', scopes: ['read'] } });
    await expect(connection.start()).rejects.toThrow('MCP server "docs" asks for OAuth ("auth"), which Cairn does not support: remove "auth" and put a token in "headers", e.g. "headers": { "Authorization": "Bearer <token>" }.');
    expect(connection.state).toBe('failed');
  });

  it('names the address and the reason when nothing listens there', async () => {
    const connection = connect('gone', { url: 'http://127.0.0.1:9/mcp', startupTimeoutMs: 5000 });
    await expect(connection.start()).rejects.toThrow(/MCP server "gone" could not start: .*(ECONNREFUSED|fetch failed)/);
  });

  it('rejects a url that is not one', async () => {
    const connection = connect('bad', { url: 'not a url' });
    await expect(connection.start()).rejects.toThrow('MCP server "bad" could not start: "url" is not a valid URL (not a url): write the full address, e.g. https://example.com/mcp.');
  });
});
