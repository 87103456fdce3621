// biome-ignore-all lint/suspicious/noTemplateCurlyInString: configs with literal ${...} placeholders
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mcpServerConfigHash } from '../src/config/config-hash.js';
import { type FileServerOptions, loadFileServers } from '../src/config/file-servers.js';

let root: string;
let options: FileServerOptions;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'cairn-mcp-config-')));
  const cwd = join(root, 'repo');
  const homeDir = join(root, 'home');
  await mkdir(cwd, { recursive: true });
  await mkdir(homeDir, { recursive: true });
  options = { cwd, homeDir, cairnHome: join(homeDir, '.cairn'), projectServers: true, userServers: true, env: {} };
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function write(path: string, content: unknown): Promise<string> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return path;
}

const servers = (entries: Record<string, unknown>) => ({ mcpServers: entries });
const stdio = (command: string) => ({ command });

describe('config files and their precedence', () => {
  it('by name: .cairn over .cursor over .mcp.json in the project, over $CAIRN_HOME over ~/.cursor', async () => {
    const cairnProject = await write(join(options.cwd, '.cairn/mcp.json'), servers({ a: stdio('cairn-project') }));
    const cursorProject = await write(join(options.cwd, '.cursor/mcp.json'), servers({ a: stdio('cursor-project'), b: stdio('cursor-project') }));
    const claudeProject = await write(join(options.cwd, '.mcp.json'), servers({ a: stdio('claude'), b: stdio('claude'), c: stdio('claude') }));
    const cairnUser = await write(join(options.cairnHome, 'mcp.json'), servers({ c: stdio('cairn-user'), d: stdio('cairn-user') }));
    const cursorUser = await write(join(options.homeDir, '.cursor/mcp.json'), servers({ d: stdio('cursor-user'), e: stdio('cursor-user') }));
    const { declarations, fileProblems } = await loadFileServers(options);
    expect(fileProblems).toEqual([]);
    expect(declarations.map(({ name, origin, file, config }) => ({ name, origin, file, command: (config as { command: string }).command }))).toEqual([
      { name: 'a', origin: 'project', file: cairnProject, command: 'cairn-project' },
      { name: 'b', origin: 'project', file: cursorProject, command: 'cursor-project' },
      { name: 'c', origin: 'project', file: claudeProject, command: 'claude' },
      { name: 'd', origin: 'user', file: cairnUser, command: 'cairn-user' },
      { name: 'e', origin: 'user', file: cursorUser, command: 'cursor-user' },
    ]);
  });

  it('reads the project files only when the project layer was asked for, the user files only with the user layer', async () => {
    await write(join(options.cwd, '.cursor/mcp.json'), '{ broken');
    await write(join(options.cwd, '.mcp.json'), servers({ p: stdio('p') }));
    await write(join(options.homeDir, '.cursor/mcp.json'), servers({ u: stdio('u') }));
    const userOnly = await loadFileServers({ ...options, projectServers: false });
    expect(userOnly).toEqual({ declarations: [expect.objectContaining({ name: 'u', origin: 'user' })], fileProblems: [] });
    const projectOnly = await loadFileServers({ ...options, userServers: false });
    expect(projectOnly.declarations.map((declaration) => declaration.name)).toEqual(['p']);
    expect(await loadFileServers({ ...options, projectServers: false, userServers: false })).toEqual({ declarations: [], fileProblems: [] });
  });

  it('a broken file is a problem naming the file and the JSON error; its servers are absent, the other files still count', async () => {
    const broken = await write(join(options.cwd, '.cairn/mcp.json'), '{ "mcpServers": { "a": { "command": "npx", } } }');
    await write(join(options.cwd, '.cursor/mcp.json'), servers({ a: stdio('from-cursor'), b: stdio('b') }));
    const { declarations, fileProblems } = await loadFileServers(options);
    expect(fileProblems).toHaveLength(1);
    expect(fileProblems[0]).toMatch(new RegExp(`^${broken.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not valid JSON \\(.+\\); its MCP servers are left out until it is fixed$`));
    expect(fileProblems[0]).toMatch(/JSON|property|token/i);
    expect(declarations.map((declaration) => [declaration.name, (declaration.config as { command: string }).command])).toEqual([
      ['a', 'from-cursor'],
      ['b', 'b'],
    ]);
  });

  it('a file in another format (VS Code "servers") or with a wrong mcpServers is a problem; an empty object is not', async () => {
    const vscode = await write(join(options.cwd, '.cursor/mcp.json'), { servers: { a: stdio('a') } });
    const wrong = await write(join(options.cwd, '.mcp.json'), { mcpServers: [stdio('a')] });
    await write(join(options.cairnHome, 'mcp.json'), {});
    const { declarations, fileProblems } = await loadFileServers(options);
    expect(declarations).toEqual([]);
    expect(fileProblems).toEqual([
      `${vscode} has no "mcpServers" object (it has "servers"); write { "mcpServers": { "<name>": { "command": "..." } } }`,
      `${wrong}: "mcpServers" must be an object of servers by name, not an array; write { "mcpServers": { "<name>": { "command": "..." } } }`,
    ]);
  });

  it("reads Claude Code's .mcp.json: type stdio / http / sse, ${VAR} and ${VAR:-default}", async () => {
    await write(
      join(options.cwd, '.mcp.json'),
      servers({
        tool: { type: 'stdio', command: 'node', args: ['./server.js'], env: { DEBUG: '${DEBUG:-false}' } },
        remote: { type: 'sse', url: 'https://api.example.com/mcp/sse', headers: { Authorization: 'Bearer ${API_TOKEN}' } },
        service: { type: 'http', url: '${SERVICE_URL:-https://api.example.com/mcp}', headers: { 'X-API-Key': '${API_KEY}' } },
      }),
    );
    const { declarations } = await loadFileServers({ ...options, env: { API_TOKEN: 't0ken', API_KEY: 'k3y' } });
    expect(declarations.map((declaration) => declaration.config)).toEqual([
      { type: 'stdio', command: 'node', args: ['./server.js'], env: { DEBUG: 'false' } },
      { type: 'sse', url: 'https://api.example.com/mcp/sse', headers: { Authorization: 'Bearer t0ken' } },
      { type: 'http', url: 'https://api.example.com/mcp', headers: { 'X-API-Key': 'k3y' } },
    ]);
  });

  it('resolves a relative stdio cwd against the workspace for project files and the home for user files', async () => {
    await write(join(options.cwd, '.cursor/mcp.json'), servers({ p: { command: 'node', cwd: 'tools' }, w: { command: 'node', cwd: '${workspaceFolder}/sub' } }));
    await write(join(options.homeDir, '.cursor/mcp.json'), servers({ u: { command: 'node', cwd: 'bin' }, h: { command: 'node', cwd: '${userHome}/x' } }));
    const { declarations } = await loadFileServers(options);
    expect(Object.fromEntries(declarations.map((declaration) => [declaration.name, (declaration.config as { cwd: string }).cwd]))).toEqual({
      p: join(options.cwd, 'tools'),
      w: join(options.cwd, 'sub'),
      u: join(options.homeDir, 'bin'),
      h: join(options.homeDir, 'x'),
    });
  });

  it('an unset variable leaves the server out with a problem naming the variable and the file; the written hash ignores values', async () => {
    const file = await write(
      join(options.cwd, '.cursor/mcp.json'),
      servers({ gh: { command: 'npx', env: { GITHUB_TOKEN: '${env:GITHUB_TOKEN}' } }, other: stdio('other') }),
    );
    const unset = await loadFileServers(options);
    const [gh, other] = unset.declarations;
    expect(gh!.config).toBeUndefined();
    expect(gh!.problem).toBe(
      `MCP server "gh" (in ${file}) was left out: its config uses GITHUB_TOKEN, which is not set in the agent's environment. ` +
        'Set GITHUB_TOKEN (or pass it in the agent\'s env), or write a default as ${GITHUB_TOKEN:-value}',
    );
    expect(other!.config).toEqual({ command: 'other' });
    const set = await loadFileServers({ ...options, env: { GITHUB_TOKEN: 'secret' } });
    expect(set.declarations[0]!.config).toEqual({ command: 'npx', env: { GITHUB_TOKEN: 'secret' } });
    expect(set.declarations[0]!.writtenHash).toBe(gh!.writtenHash);
    expect(gh!.writtenHash).toBe(mcpServerConfigHash({ command: 'npx', env: { GITHUB_TOKEN: '${env:GITHUB_TOKEN}' } }));
  });

  it('an entry that cannot be used still hides the same name in lower files, and says why', async () => {
    const file = await write(join(options.cwd, '.cairn/mcp.json'), servers({ a: { command: 'npx', disabled: true } }));
    await write(join(options.homeDir, '.cursor/mcp.json'), servers({ a: stdio('user') }));
    const { declarations } = await loadFileServers(options);
    expect(declarations).toHaveLength(1);
    expect(declarations[0]).toMatchObject({ name: 'a', origin: 'project', file });
    expect(declarations[0]!.problem).toBe(
      `MCP server "a": unknown field "disabled"; this server takes type, command, args, env, cwd, startupTimeoutMs, callTimeoutMs (in ${file})`,
    );
  });

  it('when the workspace is the home folder, ~/.cursor/mcp.json counts once: as a project file when that layer is read', async () => {
    const file = await write(join(options.homeDir, '.cursor/mcp.json'), servers({ a: stdio('a') }));
    const inHome = { ...options, cwd: options.homeDir };
    expect((await loadFileServers(inHome)).declarations).toEqual([expect.objectContaining({ name: 'a', origin: 'project', file })]);
    expect((await loadFileServers({ ...inHome, projectServers: false })).declarations).toEqual([expect.objectContaining({ name: 'a', origin: 'user', file })]);
    expect((await loadFileServers({ ...inHome, userServers: false })).declarations).toEqual([expect.objectContaining({ name: 'a', origin: 'project', file })]);
  });
});
