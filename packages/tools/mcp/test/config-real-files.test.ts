import { copyFile, mkdir, mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadFileServers } from '../src/config/file-servers.js';

// Real .cursor/mcp.json files from public repositories (test/config-fixtures/SOURCES.md names them).
const fixtures = join(import.meta.dirname, 'config-fixtures');
let root: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'cairn-mcp-real-')));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function place(fixture: string, folder: string): Promise<string> {
  await mkdir(join(folder, '.cursor'), { recursive: true });
  const path = join(folder, '.cursor', 'mcp.json');
  await copyFile(join(fixtures, fixture), path);
  return path;
}

describe('real .cursor/mcp.json files load unchanged', () => {
  it("a project's stdio servers (tabs, mixed indentation, an empty env, no final newline)", async () => {
    const cwd = join(root, 'repo');
    const file = await place('nginx-ui.cursor-mcp.json', cwd);
    expect(await readFile(file, 'utf8')).toContain('\t\t"eslint"');
    const { declarations, fileProblems } = await loadFileServers({ cwd, homeDir: join(root, 'home'), cairnHome: join(root, 'home', '.cairn'), projectServers: true, userServers: false, env: {} });
    expect(fileProblems).toEqual([]);
    expect(declarations.map(({ name, origin, file: from, config, problem }) => ({ name, origin, from, config, problem }))).toEqual([
      { name: 'eslint', origin: 'project', from: file, config: { command: 'npx', args: ['@eslint/mcp@latest'], env: {} }, problem: undefined },
      { name: 'context7', origin: 'project', from: file, config: { command: 'npx', args: ['-y', '@upstash/context7-mcp'] }, problem: undefined },
    ]);
  });

  it("a user's remote server written with a url only", async () => {
    const homeDir = join(root, 'home');
    const file = await place('renderiq.cursor-mcp.json', homeDir);
    const { declarations, fileProblems } = await loadFileServers({ cwd: join(root, 'repo'), homeDir, cairnHome: join(homeDir, '.cairn'), projectServers: false, userServers: true, env: {} });
    expect(fileProblems).toEqual([]);
    expect(declarations).toEqual([
      expect.objectContaining({ name: 'Sentry', origin: 'user', file, config: { url: 'https://mcp.sentry.dev/mcp/renderiq/javascript-nextjs' } }),
    ]);
    expect(declarations[0]!.problem).toBeUndefined();
  });
});
