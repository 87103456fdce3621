import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, findTool, textOf, useConnections } from './helpers/connections.js';
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

describe('resources and prompts as tools', () => {
  it('lists and reads the resources of a server that has them (read-only tools)', async () => {
    const connection = connect('fx', fixtureConfig(stateDir), { resultDir });
    await connection.start();
    const list = findTool(connection, 'mcp__fx__list_resources');
    expect(list).toMatchObject({ readOnly: true, category: 'mcp', id: 'mcp__fx__list_resources' });
    expect(list.ruleSubject?.({})).toBe('fx:list_resources');
    expect(findTool(connection, 'mcp__fx__read_resource').readOnly).toBe(true);
    expect(textOf(await callTool(connection, 'mcp__fx__list_resources'))).toBe('- fixture://notes/readme — readme (text/plain)\n- fixture://data/blob — blob (application/octet-stream)');
    expect(textOf(await callTool(connection, 'mcp__fx__read_resource', { uri: 'fixture://notes/readme' }))).toBe('[fixture://notes/readme (text/plain)]\nThe fixture readme.');
    const blob = textOf(await callTool(connection, 'mcp__fx__read_resource', { uri: 'fixture://data/blob' }));
    const path = /saved to (\S+)\)\]$/.exec(blob)?.[1];
    expect(blob).toMatch(/^\[fixture:\/\/data\/blob \(application\/octet-stream, 12 bytes, saved to /);
    expect(readFileSync(path as string, 'utf8')).toBe('binary bytes');
  });

  it('reports a resource the server does not have as an error result', async () => {
    const connection = connect('fx', fixtureConfig(stateDir), { resultDir });
    await connection.start();
    const result = await callTool(connection, 'mcp__fx__read_resource', { uri: 'fixture://missing' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('MCP server "fx" failed reading fixture://missing: ');
    expect(textOf(result)).toContain('no resource fixture://missing');
  });

  it('lists and gets prompts', async () => {
    const connection = connect('fx', fixtureConfig(stateDir), { resultDir });
    await connection.start();
    expect(textOf(await callTool(connection, 'mcp__fx__list_prompts'))).toBe('- greet(name) — Greet someone.');
    expect(textOf(await callTool(connection, 'mcp__fx__get_prompt', { name: 'greet', arguments: { name: 'Ada' } }))).toBe('A greeting\n[user]\nSay hello to Ada.');
  });

  it('offers no resource or prompt tools for a server without those capabilities', async () => {
    const connection = connect('files', { command: process.execPath, args: [new URL('../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js', import.meta.url).pathname, stateDir] });
    await connection.start();
    const names = connection.tools().map((tool) => tool.name);
    expect(names).toContain('mcp__files__read_text_file');
    expect(names.filter((name) => /list_resources|read_resource|prompt/.test(name))).toEqual([]);
  });
});
