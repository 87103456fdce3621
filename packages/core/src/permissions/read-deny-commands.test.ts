import { link, mkdir, mkdtemp, realpath, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createPermissionEngine, type PermissionCheckRequest } from './permission-engine.js';

let base: string;
let root: string;
let home: string;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'cairn-read-deny-')));
  root = join(base, 'proj');
  home = join(base, 'home');
  await mkdir(join(root, 'sub'), { recursive: true });
  await mkdir(join(root, 'secrets'), { recursive: true });
  await mkdir(join(home, '.ssh'), { recursive: true });
  await writeFile(join(root, '.env'), 'TOKEN=1\n');
  await writeFile(join(root, 'sub', '.env.local'), 'TOKEN=2\n');
  await writeFile(join(root, 'secrets', 'key.pem'), 'KEY\n');
  await writeFile(join(root, 'a.txt'), 'alpha\n');
  await writeFile(join(home, '.ssh', 'id_rsa'), 'PRIVATE\n');
  await symlink('.env', join(root, 'link-env'));
  await link(join(root, '.env'), join(root, 'notes.txt'));
});

const shell = (command: string, cwd?: string): PermissionCheckRequest => ({
  toolId: 'shell', toolName: 'run_terminal_cmd', category: 'shell', readOnly: false, input: cwd ? { command, cwd } : { command }, subject: command, paths: [], cwd: root,
});

const engine = () => createPermissionEngine({ layers: [{ source: 'user', rules: { allow: ['shell'], deny: ['read(.env*)', 'read(secrets/**)', 'read(~/.ssh/**)'] } }], cwd: root, home });

describe('read deny rules and shell commands', () => {
  it('refuses every command that names a denied file, however it is spelled', async () => {
    const permissions = engine();
    const commands = [
      'cat .env', 'cat ./.env', 'cat "$PWD/.env"', 'cat < .env', 'head -1 .e""nv', 'cat .e\\nv', 'cat .e*', 'cat .en?', "cat '.env'",
      'grep TOKEN --file=.env x', 'cat sub/.env.local', 'cd sub && cat .env.local', 'cat */.env*', 'cat link-env', 'cat notes.txt',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion
      'cat secrets/key.pem', 'cat secrets/*', 'tar -cf - secrets', 'cat ~/.ssh/id_rsa', 'cat $HOME/.ssh/id_rsa', 'cat "${HOME}/.ssh/id_rsa"',
      `cat ${join(home, '.ssh', 'id_rsa')}`, `cat ${join(root, '.env')}`, 'cat $DIR/.env', 'python3 -c "print(open(\'.env\').read())"',
      'X=.env; cat $X', 'cp .env /tmp/x', 'ln .env copy', 'find . -name ".env*" -exec cat {} +', 'shopt -s dotglob; cat *',
    ];
    for (const command of commands) {
      const result = await permissions.check(shell(command));
      expect(result.decision, `${command}: ${result.reason}`).toBe('deny');
      expect(result.reason, command).toMatch(/deny rule read\(.+\) hides/);
    }
    const inSub = await permissions.check(shell('cat ../.env', 'sub'));
    expect(inSub.decision).toBe('deny');
  });

  it('lets commands that name no denied file through', async () => {
    const permissions = engine();
    for (const command of ['cat a.txt', 'ls', 'wc -l sub/*', 'grep -rn alpha src', 'git status', 'echo $(date)', 'cat ~/.bashrc', 'cat .envoy-notes/../a.txt']) {
      const result = await permissions.check(shell(command));
      expect(result.decision, `${command}: ${result.reason}`).toBe('allow');
    }
  });

  it('finds the denied files on disk, hard links included, for the OS-level masks', async () => {
    const found = await engine().deniedFiles(root).current();
    expect(found.complete).toBe(true);
    // `~` is the configured home and the real one (a rule means both), so a real ~/.ssh is found too.
    const realSsh = join(homedir(), '.ssh');
    const expected = [join(home, '.ssh'), join(root, '.env'), join(root, 'notes.txt'), join(root, 'secrets'), join(root, 'sub', '.env.local'), ...(existsSync(realSsh) ? [realSsh] : [])];
    expect(found.paths.sort()).toEqual(expected.sort());
  });
});
