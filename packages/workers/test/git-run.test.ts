import { chmod, readdir, writeFile } from 'node:fs/promises';
import { describePostgres } from '@cairn/store-postgres/testing';
import { beforeAll, expect, it } from 'vitest';
import { bareOrigin, fileAt, isolateGitConfig, logOf, tempDir } from './git-fixture.js';
import { toolResults, useWorld } from './harness.js';

beforeAll(isolateGitConfig);

describePostgres('background runs on a git workspace', (url) => {
  const world = useWorld(url);

  it('the worker clones, the agent writes, the run commits and pushes its branch before wait() returns; the next run continues on it', async () => {
    const w = world();
    const { bare, url: repoUrl } = await bareOrigin();
    w.route = (text, body) => {
      if (toolResults(body).length) return { text: 'written' };
      const file = text.startsWith('First') ? 'first.txt' : 'second.txt';
      return { toolCalls: [{ name: 'write', args: { path: file, contents: `${text}\n` } }] };
    };
    const queue = await w.queue();
    const { agent, store } = await w.sender(queue);
    await w.worker({ workDir: await tempDir('cairn-workers-clones-') });
    const branch = `cairn/${agent.agentId}`;

    const first = await agent.send('First file please\nwith more words', { workspace: { git: { repoUrl } } });
    expect(await first.wait()).toMatchObject({ status: 'finished', result: 'written' });
    expect((await store.runs.get(first.id))?.git).toEqual({ branches: [{ repoUrl, branch }] });
    expect(logOf(bare, branch).map(({ subject, author }) => `${subject} / ${author}`)).toEqual(['First file please / Cairn <cairn@localhost>', 'initial / Tester <tester@example.com>']);
    expect(fileAt(bare, branch, 'first.txt')).toBe('First file please\nwith more words\n');

    const second = await agent.send('Second file', { workspace: { git: { repoUrl } } });
    expect(await second.wait()).toMatchObject({ status: 'finished' });
    expect(logOf(bare, branch).map(({ subject }) => subject)).toEqual(['Second file', 'First file please', 'initial']);
    expect(fileAt(bare, branch, 'first.txt')).toBe('First file please\nwith more words\n');
    expect(fileAt(bare, branch, 'second.txt')).toBe('Second file\n');
    expect(logOf(bare, 'main')).toHaveLength(1);
    // The agent worked in the clone, never in its own folder.
    expect(await readdir(w.cwd)).toEqual([]);
  });

  it('a repository the worker cannot fetch ends the run error with the reason, without opening the agent or retrying', async () => {
    const w = world();
    const queue = await w.queue();
    const { agent } = await w.sender(queue);
    let opened = 0;
    await w.worker({ openAgent: async () => { opened++; throw new Error('not expected'); } });
    const missing = `${w.cwd}/no-such-repository.git`;
    const run = await agent.send('Work on it', { workspace: { git: { repoUrl: missing } } });
    const result = await run.wait();
    expect(result).toMatchObject({ status: 'error', error: { code: 'git_workspace_failed' } });
    expect(result.error?.message).toMatch(new RegExp(`^Could not fetch ${missing}: git clone failed \\(exit 128\\): .*does not exist`, 's'));
    expect(opened).toBe(0);
    expect(await w.sql(`SELECT id FROM "${w.graphileSchema}"._private_jobs`)).toEqual([]);
  });

  it('a push the origin rejects ends the run error naming the rejection: never a silent success', async () => {
    const w = world();
    const { bare, url: repoUrl } = await bareOrigin();
    // The origin refuses every push to the agent's branches, as a protected branch would.
    await writeFile(`${bare}/hooks/pre-receive`, '#!/bin/sh\necho "branch is protected" >&2\nexit 1\n');
    await chmod(`${bare}/hooks/pre-receive`, 0o755);
    w.route = (_text, body) => (toolResults(body).length ? { text: 'written' } : { toolCalls: [{ name: 'write', args: { path: 'x.txt', contents: 'x\n' } }] });
    const queue = await w.queue();
    const { agent, store } = await w.sender(queue);
    await w.worker();
    const run = await agent.send('Change something', { workspace: { git: { repoUrl } } });
    const result = await run.wait();
    expect(result).toMatchObject({ status: 'error', error: { code: 'git_workspace_failed' } });
    expect(result.error?.message).toMatch(/^Could not push branch cairn\/.* git push failed \(exit 1\): .*branch is protected/s);
    expect((await store.runs.get(run.id))?.git).toBeUndefined();
  });
});
