import { mkdir, mkdtemp, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mcpTrustStore } from '../src/commands/mcp-trust-store.js';

const temp = (prefix: string) => mkdtemp(join(tmpdir(), prefix));

describe('MCP trust store', () => {
  it('trusts a server only with the hash that was confirmed: a changed config asks again', async () => {
    const store = mcpTrustStore(await temp('cairn-home-'));
    const workspace = await temp('cairn-ws-');
    expect(await store.isTrusted(workspace, { name: 'fs', hash: 'h1' })).toBe(false);
    await store.trust(workspace, { name: 'fs', hash: 'h1', file: '.cursor/mcp.json' });
    expect(await store.isTrusted(workspace, { name: 'fs', hash: 'h1' })).toBe(true);
    expect(await store.isTrusted(workspace, { name: 'fs', hash: 'h2' })).toBe(false);
    expect(await store.lookup(workspace, 'fs')).toMatchObject({ hash: 'h1', file: '.cursor/mcp.json' });
    await store.trust(workspace, { name: 'fs', hash: 'h2', file: '.cursor/mcp.json' });
    expect(await store.isTrusted(workspace, { name: 'fs', hash: 'h1' })).toBe(false);
    expect(await store.isTrusted(workspace, { name: 'fs', hash: 'h2' })).toBe(true);
  });

  it('keeps each workspace apart and keys it by its real path', async () => {
    const store = mcpTrustStore(await temp('cairn-home-'));
    const one = await temp('cairn-ws-');
    const other = await temp('cairn-ws-');
    const link = join(await temp('cairn-links-'), 'one');
    await symlink(one, link);
    await store.trust(link, { name: 'fs', hash: 'h1', file: '.mcp.json' });
    expect(await store.isTrusted(one, { name: 'fs', hash: 'h1' })).toBe(true);
    expect(await store.isTrusted(other, { name: 'fs', hash: 'h1' })).toBe(false);
  });

  it('remembers across store instances in a private file under the Cairn home', async () => {
    const home = await temp('cairn-home-');
    const workspace = await temp('cairn-ws-');
    await mcpTrustStore(home).trust(workspace, { name: 'fs', hash: 'h1', file: '.mcp.json' });
    expect(await mcpTrustStore(home).isTrusted(workspace, { name: 'fs', hash: 'h1' })).toBe(true);
    const file = join(home, 'trusted-mcp.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, 'utf8')).version).toBe(1);
  });

  it('forgets named servers or all of a workspace', async () => {
    const store = mcpTrustStore(await temp('cairn-home-'));
    const workspace = await temp('cairn-ws-');
    for (const name of ['a', 'b', 'c']) await store.trust(workspace, { name, hash: name, file: '.mcp.json' });
    expect(await store.forget(workspace, ['b', 'missing'])).toEqual(['b']);
    expect(await store.isTrusted(workspace, { name: 'b', hash: 'b' })).toBe(false);
    expect(await store.isTrusted(workspace, { name: 'a', hash: 'a' })).toBe(true);
    expect((await store.forget(workspace)).sort()).toEqual(['a', 'c']);
    expect(await store.isTrusted(workspace, { name: 'a', hash: 'a' })).toBe(false);
    expect(await store.forget(workspace)).toEqual([]);
  });

  it('refuses a damaged file instead of treating it as empty and overwriting it', async () => {
    const home = await temp('cairn-home-');
    await mkdir(home, { recursive: true });
    await writeFile(join(home, 'trusted-mcp.json'), '{ not json');
    const store = mcpTrustStore(home);
    const workspace = await temp('cairn-ws-');
    await expect(store.isTrusted(workspace, { name: 'fs', hash: 'h' })).rejects.toThrow(/trusted-mcp\.json is not valid JSON .*delete it/);
    await expect(store.trust(workspace, { name: 'fs', hash: 'h', file: '.mcp.json' })).rejects.toThrow(/not valid JSON/);
    expect(await readFile(join(home, 'trusted-mcp.json'), 'utf8')).toBe('{ not json');
    await writeFile(join(home, 'trusted-mcp.json'), JSON.stringify({ version: 2, workspaces: {} }));
    await expect(store.isTrusted(workspace, { name: 'fs', hash: 'h' })).rejects.toThrow(/not a trust file of this cairn version/);
  });
});
