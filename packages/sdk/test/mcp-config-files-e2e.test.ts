// Where an agent's servers come from across Agent.resume: a project config file (loaded with
// settingSources ["project"]) survives, inline servers are never written to the store.
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMemoryStore, createSqliteStore, type InteractionUpdate } from '../src/index.js';
import { expectNoServerLeft, isolatedEnv, mcpCairn, modelId, offered, servers, tempFolder } from './mcp-helpers.js';

describe('file servers and inline servers across Agent.resume', () => {
  it('a .cursor/mcp.json server survives resume; inline servers are not stored and must be passed again', async () => {
    const cwd = await tempFolder('cairn-mcp-resume-');
    const home = await tempFolder('cairn-mcp-home-');
    await mkdir(join(cwd, '.cursor'));
    await writeFile(join(cwd, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { files: servers.filesystem(cwd) } }, null, 2));
    const secret = 'inline-secret-7f3a91';
    const everything = servers.everything();
    const inline = { everything: { ...everything, env: { ...everything.env, EVERYTHING_TOKEN: secret } } };
    const storePath = join(home, 'agents.db');
    const env = isolatedEnv(home);
    const local = { cwd, settingSources: ['project' as const] };
    const { Agent, model } = mcpCairn([{ text: 'one' }, { text: 'two' }, { text: 'three' }]);

    const store = createSqliteStore({ path: storePath });
    const agent = await Agent.create({ model: modelId, mcpServers: inline, env, local: { ...local, store } });
    await (await agent.send('one')).wait();
    await agent.close();
    const without = await Agent.resume(agent.agentId, { env, local: { ...local, store } });
    await (await without.send('two')).wait();
    await without.close();
    const withInline = await Agent.resume(agent.agentId, { mcpServers: inline, env, local: { ...local, store } });
    await (await withInline.send('three')).wait();
    await withInline.close();
    store.close();

    const [first, second, third] = model.calls.map(offered);
    expect(first).toEqual(expect.arrayContaining(['mcp__files__read_text_file', 'mcp__everything__echo']));
    expect(second).toContain('mcp__files__read_text_file');
    expect(second!.some((name) => name.startsWith('mcp__everything__'))).toBe(false);
    expect(third).toEqual(expect.arrayContaining(['mcp__files__read_text_file', 'mcp__everything__echo']));
    // Neither the secret nor the inline server's command line is anywhere in the database.
    const bytes = readFileSync(storePath).toString('latin1');
    expect(bytes).not.toContain(secret);
    expect(bytes).not.toContain('EVERYTHING_TOKEN');
    await expectNoServerLeft();
  });

  it('without settingSources, no config file starts a server (only inline servers load)', async () => {
    const cwd = await tempFolder('cairn-mcp-untrusted-');
    const home = await tempFolder('cairn-mcp-home-');
    const marker = join(cwd, 'mcp-ran');
    const starts = { mcpServers: { planted: { command: 'touch', args: [marker] } } };
    await mkdir(join(cwd, '.cursor'));
    await writeFile(join(cwd, '.cursor', 'mcp.json'), JSON.stringify(starts));
    await writeFile(join(cwd, '.mcp.json'), JSON.stringify(starts));
    await mkdir(join(home, '.cursor'));
    await writeFile(join(home, '.cursor', 'mcp.json'), JSON.stringify(starts));
    const { Agent, model } = mcpCairn([{ text: 'nothing started' }]);
    await using agent = await Agent.create({ model: modelId, env: isolatedEnv(home), local: { cwd, store: createMemoryStore() } });
    const updates: InteractionUpdate[] = [];
    expect(await (await agent.send('go', { onDelta: ({ update }) => void updates.push(update) })).wait()).toMatchObject({ status: 'finished' });
    expect(existsSync(marker)).toBe(false);
    expect(updates.filter((update) => update.type === 'warning')).toEqual([]);
    expect(offered(model.calls[0]).some((name) => name.startsWith('mcp__'))).toBe(false);
  });

  it('agent.reload() picks up a changed project config: a removed server is gone at the next run, an added one is there', async () => {
    const cwd = await tempFolder('cairn-mcp-reload-');
    const home = await tempFolder('cairn-mcp-home-');
    await mkdir(join(cwd, '.cairn'));
    const writeConfig = (config: object) => writeFile(join(cwd, '.cairn', 'mcp.json'), JSON.stringify({ mcpServers: config }));
    await writeConfig({ files: servers.filesystem(cwd) });
    const { Agent, model } = mcpCairn([{ text: 'one' }, { text: 'two' }]);
    const agent = await Agent.create({ model: modelId, env: isolatedEnv(home), local: { cwd, store: createMemoryStore(), settingSources: ['project'] } });
    await (await agent.send('one')).wait();
    await writeConfig({ everything: servers.everything() });
    await agent.reload();
    await (await agent.send('two')).wait();
    await agent.close();
    const [first, second] = model.calls.map(offered);
    expect(first).toContain('mcp__files__read_text_file');
    expect(first!.some((name) => name.startsWith('mcp__everything__'))).toBe(false);
    expect(second).toContain('mcp__everything__echo');
    expect(second!.some((name) => name.startsWith('mcp__files__'))).toBe(false);
    await expectNoServerLeft();
  });
});
