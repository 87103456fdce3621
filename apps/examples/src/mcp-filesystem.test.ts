import { mkdtemp, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { filesystemServer, runMcpFilesystemExample } from './mcp-filesystem.js';

/** The installed server (a devDependency): tests never download it with npx. */
function installedFilesystemServerBin(): string {
  const packageJson = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-filesystem/package.json');
  const { bin } = createRequire(import.meta.url)(packageJson) as { bin: Record<string, string> };
  return join(dirname(packageJson), bin['mcp-server-filesystem']!);
}

describe('MCP filesystem example', () => {
  it('reads a file through the real filesystem server over stdio, against an OpenAI-compatible wire server', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'cairn-example-'));
    await writeFile(join(cwd, 'NOTES.md'), '# Notes\nShip the MCP example on Friday.\n');
    const lines: string[] = [];
    const { result, toolCalls, problems } = await runMcpFilesystemExample({ cwd, server: filesystemServer(cwd, installedFilesystemServerBin()), log: (line) => lines.push(line) });
    expect(result.status).toBe('finished');
    expect(problems).toEqual([]);
    expect(toolCalls).toHaveLength(1);
    expect(toolCalls[0]).toMatch(/filesystem.*read_text_file/);
    expect(lines.at(-1)).toBe('The notes say: Ship the MCP example on Friday.');
    expect(lines.some((line) => line.startsWith('!'))).toBe(false);
  });

  it('writes the server config a user would put in mcpServers: npx by default, an installed copy on request', () => {
    expect(filesystemServer('/work')).toEqual({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem@2026.8.31', '/work'] });
    expect(filesystemServer('/work', '/opt/fs/dist/index.js')).toEqual({ command: process.execPath, args: ['/opt/fs/dist/index.js', '/work'] });
  });
});
