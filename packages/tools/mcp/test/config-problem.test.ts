// biome-ignore-all lint/suspicious/noTemplateCurlyInString: configs with literal ${...} placeholders
import { describe, expect, it } from 'vitest';
import { configProblem } from '../src/config/config-problem.js';
import { serverNameProblem } from '../src/config/server-name.js';

describe('configProblem: the reference shape of McpServerConfig', () => {
  it('accepts stdio and remote servers as the reference SDK writes them, with Cairn time limits', () => {
    expect(configProblem('fs', { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'], env: { A: 'b' }, cwd: '/tmp' })).toBeUndefined();
    expect(configProblem('fs', { type: 'stdio', command: 'node', startupTimeoutMs: 5000, callTimeoutMs: 1000 })).toBeUndefined();
    expect(configProblem('docs', { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer x' } })).toBeUndefined();
    expect(configProblem('docs', { type: 'http', url: 'http://127.0.0.1:3000/mcp', auth: { CLIENT_ID: 'id', CLIENT_SECRET: 's', scopes: ['read'] } })).toBeUndefined();
    expect(configProblem('legacy', { type: 'sse', url: 'http://localhost:3000/sse' })).toBeUndefined();
  });

  it('a stdio server needs a command, a remote one an http(s) url', () => {
    expect(configProblem('fs', { type: 'stdio', args: ['x'] })).toMatch(/^MCP server "fs": "command" must be a non-empty string \(e\.g\. "npx"\)/);
    expect(configProblem('fs', { command: '  ' })).toContain('"command" must be a non-empty string (e.g. "npx"), not an empty one');
    expect(configProblem('fs', {})).toBe('MCP server "fs": it needs "command" (a server Cairn starts, e.g. "command": "npx") or "url" (a remote server, e.g. "url": "https://host/mcp")');
    expect(configProblem('docs', { type: 'http' })).toContain('"url" must be a non-empty string');
    expect(configProblem('docs', { url: 'not a url' })).toBe('MCP server "docs": "url" is not a valid address; write a full http:// or https:// URL such as "https://host/mcp"');
    expect(configProblem('docs', { url: 'file:///srv/mcp.sock' })).toContain('"url" must be an http:// or https:// address, not file:');
    expect(configProblem('both', { command: 'npx', url: 'https://example.com' })).toContain('it has both "command" and "url"');
  });

  it('does not repeat a url in its message (it may carry a token)', () => {
    expect(configProblem('docs', { url: 'ftp://user:secret-token@example.com/' })).not.toContain('secret-token');
  });

  it('names an unknown type and says what to write', () => {
    expect(configProblem('x', { type: 'websocket', url: 'wss://example.com' })).toBe(
      'MCP server "x": "type" "websocket" is not a transport; write "stdio" (with "command"), "http" or "sse" (with "url"), or leave it out',
    );
    expect(configProblem('x', { type: 3, command: 'npx' })).toContain('"type" a number is not a transport');
  });

  it('names unknown fields, and a field of the other transport as such', () => {
    expect(configProblem('x', { command: 'npx', disabled: true })).toBe(
      'MCP server "x": unknown field "disabled"; this server takes type, command, args, env, cwd, startupTimeoutMs, callTimeoutMs',
    );
    expect(configProblem('x', { url: 'https://example.com/sse', env: { KEY: 'v' } })).toBe(
      'MCP server "x": "env" is only for stdio ("command") servers; this server takes type, url, headers, auth, startupTimeoutMs, callTimeoutMs',
    );
    expect(configProblem('x', { command: 'npx', headers: {} })).toContain('"headers" is only for remote ("url") servers');
    expect(configProblem('x', { url: 'https://e.com', auth: { CLIENT_ID: 'a', token: 'b' } })).toContain('unknown field "auth.token"; "auth" takes CLIENT_ID, CLIENT_SECRET, scopes');
  });

  it('names fields of the wrong type, down to the entry', () => {
    expect(configProblem('x', { command: 'npx', args: '-y server' })).toContain('"args" must be an array of strings (e.g. ["-y"');
    expect(configProblem('x', { command: 'npx', args: ['--port', 8080] })).toContain('"args[1]" must be a string, not a number (write numbers and flags in quotes)');
    expect(configProblem('x', { command: 'npx', env: { DEBUG: true } })).toContain('"env.DEBUG" must be a string, not a boolean');
    expect(configProblem('x', { command: 'npx', env: ['A=b'] })).toContain('"env" must be an object of strings');
    expect(configProblem('x', { command: 'npx', cwd: 7 })).toContain('"cwd" must be a non-empty string');
    expect(configProblem('x', { url: 'https://e.com', headers: { 'X-Port': 1 } })).toContain('"headers.X-Port" must be a string, not a number');
    expect(configProblem('x', { url: 'https://e.com', auth: { scopes: ['a'] } })).toContain('"auth.CLIENT_ID" must be a non-empty string');
    expect(configProblem('x', { command: 'npx', startupTimeoutMs: -1 })).toContain('"startupTimeoutMs" must be a positive number of milliseconds (e.g. 60000), not -1');
    expect(configProblem('x', { command: 'npx', callTimeoutMs: '10s' })).toContain('"callTimeoutMs" must be a positive number of milliseconds (e.g. 60000), not a string');
    expect(configProblem('x', ['npx'])).toContain('the config must be an object such as');
    expect(configProblem('x', null)).toContain('not null');
  });

  it('checks a placeholder url only after expansion when asked to', () => {
    const written = { url: '${env:BASE_URL}/mcp' };
    expect(configProblem('x', written, { beforeExpansion: true })).toBeUndefined();
    expect(configProblem('x', written)).toContain('"url" is not a valid address');
  });
});

describe('server names', () => {
  it('must not be empty', () => {
    expect(serverNameProblem('')).toBe('MCP server names must not be empty: give each server in mcpServers a name such as "github"');
    expect(configProblem(' ', { command: 'npx' })).toContain('must not be empty');
  });

  it('must not contain "__", and the message says why and what to write', () => {
    expect(configProblem('my__server', { command: 'npx' })).toBe(
      'MCP server "my__server": the name must not contain "__" (two underscores separate the server\'s name from the tool\'s in tool names); write e.g. "my_server" or use "-"',
    );
    expect(serverNameProblem('my_server')).toBeUndefined();
    expect(serverNameProblem('my-server.v2')).toBeUndefined();
  });
});
