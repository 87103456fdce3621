import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { cliTrustProjectHooks } from './hooks-trust.js';

async function setup() {
  const cwd = await mkdtemp(join(tmpdir(), 'cairn-hooks-trust-'));
  const home = await mkdtemp(join(tmpdir(), 'cairn-hooks-home-'));
  const stderr = new PassThrough();
  let said = '';
  stderr.on('data', (chunk) => (said += String(chunk)));
  return { cwd, home, stderr, said: () => said };
}

const file = (cwd: string, hash: string) => ({ file: join(cwd, '.cursor/hooks.json'), hash, commands: ['beforeShellExecution: ./block.sh'] });

describe('cliTrustProjectHooks', () => {
  it('asks once per config hash and remembers a yes; a changed file asks again', async () => {
    const { cwd, home, stderr } = await setup();
    const questions: string[] = [];
    const trust = cliTrustProjectHooks({ cwd, env: { CAIRN_HOME: home }, stderr, ask: async (question) => {
      questions.push(question);
      return 'y';
    } });
    expect(await trust(file(cwd, 'a'))).toBe(true);
    expect(await trust(file(cwd, 'a'))).toBe(true);
    expect(questions).toHaveLength(1);
    expect(questions[0]).toContain('beforeShellExecution: ./block.sh');
    expect(await trust(file(cwd, 'b'))).toBe(true);
    expect(questions[1]).toContain('changed since you trusted it');
    expect(await readFile(join(home, 'trusted-hooks.json'), 'utf8')).toContain('.cursor/hooks.json');
  });

  it('without a terminal, trusts nothing new and says so; a no is not remembered', async () => {
    const { cwd, home, stderr, said } = await setup();
    expect(await cliTrustProjectHooks({ cwd, env: { CAIRN_HOME: home }, stderr })(file(cwd, 'a'))).toBe(false);
    expect(said()).toContain('the hooks of .cursor/hooks.json are not trusted in this workspace and were left out');
    const declined = cliTrustProjectHooks({ cwd, env: { CAIRN_HOME: home }, stderr, ask: async () => 'n' });
    expect(await declined(file(cwd, 'a'))).toBe(false);
    expect(await cliTrustProjectHooks({ cwd, env: { CAIRN_HOME: home }, stderr })(file(cwd, 'a'))).toBe(false);
  });
});
