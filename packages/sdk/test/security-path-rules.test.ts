import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFixture, type Fixture, git, hashTree, type SeenResult, attack, type Call } from './security-helpers.js';

// Issue 12, class 7: path rules fooled by symlinks. A rule is matched against the path the model
// gave and against the path it resolves to; for deny and ask one match is enough, for allow both
// must be covered (the stricter wins). The links are planted in the workspace the way a sandboxed
// command or a cloned repository would plant them.

function expectRefused(calls: Call[], seen: SeenResult[], pattern: RegExp): void {
  for (const [index, call] of calls.entries()) {
    expect(seen[index]?.isError, `${call.name} ${JSON.stringify(call.args)}: ${seen[index]?.text}`).toBe(true);
    expect(seen[index]?.text, `${call.name} ${JSON.stringify(call.args)}`).toMatch(pattern);
  }
}

const notebook = `${JSON.stringify({ cells: [{ cell_type: 'code', execution_count: null, id: 'c1', metadata: {}, outputs: [], source: ['x = 1\n'] }], metadata: {}, nbformat: 4, nbformat_minor: 5 }, null, 1)}\n`;

/** `src/` with a file and a notebook, and links into it from outside the rule's reach. */
async function sourceFixture(): Promise<Fixture> {
  const fixture = await createFixture();
  await mkdir(join(fixture.cwd, 'src', 'nested'), { recursive: true });
  await writeFile(join(fixture.cwd, 'src', 'index.ts'), 'export const answer = 42;\n');
  await writeFile(join(fixture.cwd, 'src', 'nested', 'deep.ts'), 'export const deep = 1;\n');
  await writeFile(join(fixture.cwd, 'src', 'book.ipynb'), notebook);
  await writeFile(join(fixture.cwd, 'README.md'), '# project\n');
  await symlink('src', join(fixture.cwd, 'link-src'));
  await symlink(join(fixture.cwd, 'src'), join(fixture.cwd, 'absolute-link-src'));
  await symlink('src/index.ts', join(fixture.cwd, 'alias.ts'));
  await mkdir(join(fixture.cwd, 'other'));
  await symlink('../src/nested', join(fixture.cwd, 'other', 'up-nested'));
  git(fixture.cwd, 'add', '-A');
  git(fixture.cwd, '-c', 'user.name=test', '-c', 'user.email=test@example.com', 'commit', '-qm', 'fixture');
  return fixture;
}

/** Every writing tool aimed at `prefix/...`. */
function writesThrough(prefix: string, file = 'index.ts'): Call[] {
  return [
    { name: 'write', args: { path: `${prefix}/${file}`, contents: 'pwned\n' } },
    { name: 'write', args: { path: `${prefix}/planted.ts`, contents: 'pwned\n' } },
    { name: 'search_replace', args: { path: `${prefix}/${file}`, old_string: '42', new_string: '666' } },
    { name: 'edit_file', args: { path: `${prefix}/${file}`, instructions: 'I rewrite it', code_edit: 'pwned\n' } },
    { name: 'delete_file', args: { path: `${prefix}/${file}` } },
    { name: 'edit_notebook', args: { path: `${prefix}/book.ipynb`, cell_index: 0, new_source: 'pwned = 1\n' } },
    { name: 'edit_notebook', args: { path: `${prefix}/new.ipynb`, cell_index: 0, new_source: 'pwned = 1\n', edit_mode: 'insert' } },
  ];
}

describe('path rules: a deny rule is not bypassed through a symlink', () => {
  it('deny edit(src/**) holds through link-src -> src, an absolute link, a file alias and a link from another folder', async () => {
    const fixture = await sourceFixture();
    const before = await hashTree(join(fixture.cwd, 'src'));
    const calls: Call[] = [
      ...writesThrough('link-src'),
      ...writesThrough('absolute-link-src'),
      { name: 'write', args: { path: 'alias.ts', contents: 'pwned\n' } },
      { name: 'search_replace', args: { path: 'alias.ts', old_string: '42', new_string: '666' } },
      { name: 'edit_file', args: { path: 'alias.ts', instructions: 'I rewrite it', code_edit: 'pwned\n' } },
      { name: 'write', args: { path: 'other/up-nested/deep.ts', contents: 'pwned\n' } },
      { name: 'delete_file', args: { path: 'other/up-nested/deep.ts' } },
    ];
    const seen = await attack(fixture, calls, { permissions: { deny: ['edit(src/**)'] } });
    expectRefused(calls, seen, /denied|deny/);
    expect(await hashTree(join(fixture.cwd, 'src'))).toEqual(before);
    expect(git(fixture.cwd, 'status', '--porcelain')).toBe('');
  });

  it('an absolute deny rule and an ask rule (headless: refused) hold through the link too', async () => {
    const fixture = await sourceFixture();
    const before = await hashTree(join(fixture.cwd, 'src'));
    const calls = writesThrough('link-src');
    const absolute = await attack(fixture, calls, { permissions: { deny: [`edit(${join(fixture.cwd, 'src')}/**)`] } });
    expectRefused(calls, absolute, /denied|deny/);
    const asked = await attack(fixture, calls, { permissions: { ask: ['edit(src/**)'] } });
    expectRefused(calls, asked, /approval|ask/);
    expect(await hashTree(join(fixture.cwd, 'src'))).toEqual(before);
  });

  it('deny edit(README.md) is not bypassed by writing through a link named differently', async () => {
    const fixture = await sourceFixture();
    await symlink('README.md', join(fixture.cwd, 'docs.md'));
    const calls: Call[] = [
      { name: 'write', args: { path: 'docs.md', contents: 'pwned\n' } },
      { name: 'search_replace', args: { path: 'docs.md', old_string: 'project', new_string: 'pwned' } },
      { name: 'edit_file', args: { path: 'docs.md', instructions: 'I rewrite it', code_edit: 'pwned\n' } },
    ];
    const seen = await attack(fixture, calls, { permissions: { deny: ['edit(README.md)'] } });
    expectRefused(calls, seen, /denied|deny/);
    expect(await readFile(join(fixture.cwd, 'README.md'), 'utf8')).toBe('# project\n');
  });

  it('read deny and ask rules hold through links for read_file and grep', async () => {
    const fixture = await sourceFixture();
    await mkdir(join(fixture.cwd, 'secrets'));
    await writeFile(join(fixture.cwd, 'secrets', 'key.txt'), 'TOP-SECRET-KEY\n');
    await symlink('secrets', join(fixture.cwd, 'visible'));
    await symlink('secrets/key.txt', join(fixture.cwd, 'key-alias.txt'));
    const calls: Call[] = [
      { name: 'read_file', args: { path: 'visible/key.txt' } },
      { name: 'read_file', args: { path: 'key-alias.txt' } },
      { name: 'grep', args: { pattern: 'TOP-SECRET', path: 'visible' } },
      { name: 'grep', args: { pattern: 'TOP-SECRET', path: 'key-alias.txt' } },
      { name: 'grep', args: { pattern: 'TOP-SECRET' } },
    ];
    const seen = await attack(fixture, calls, { permissions: { deny: ['read(secrets/**)'] } });
    for (const [index, call] of calls.entries()) expect(seen[index]?.text, `${call.name} ${JSON.stringify(call.args)}`).not.toContain('TOP-SECRET-KEY');
    expectRefused(calls.slice(0, 4), seen.slice(0, 4), /denied|deny/);
    // An ask rule is matched against the resolved path too: headless, the read is refused.
    const asked = await attack(fixture, calls.slice(0, 2), { permissions: { ask: ['read(secrets/**)'] } });
    expectRefused(calls.slice(0, 2), asked, /approval/);
  });
});

describe('path rules: an allow rule covers only what it names', () => {
  it('allow edit(src/**) under default deny does not reach the root through src/up -> ..', async () => {
    const fixture = await sourceFixture();
    await symlink('..', join(fixture.cwd, 'src', 'up'));
    await symlink('../README.md', join(fixture.cwd, 'src', 'readme-link.md'));
    const protectedBefore = await hashTree(fixture.cwd);
    const calls: Call[] = [
      { name: 'write', args: { path: 'src/up/README.md', contents: 'pwned\n' } },
      { name: 'write', args: { path: 'src/up/planted.md', contents: 'pwned\n' } },
      { name: 'search_replace', args: { path: 'src/up/README.md', old_string: 'project', new_string: 'pwned' } },
      { name: 'edit_file', args: { path: 'src/up/README.md', instructions: 'I rewrite it', code_edit: 'pwned\n' } },
      { name: 'delete_file', args: { path: 'src/up/README.md' } },
      { name: 'edit_notebook', args: { path: 'src/up/new.ipynb', cell_index: 0, new_source: 'x\n', edit_mode: 'insert' } },
      { name: 'write', args: { path: 'src/readme-link.md', contents: 'pwned\n' } },
      { name: 'search_replace', args: { path: 'src/readme-link.md', old_string: 'project', new_string: 'pwned' } },
    ];
    const allowed: Call[] = [
      { name: 'write', args: { path: 'src/fine.ts', contents: 'ok\n' } },
      { name: 'search_replace', args: { path: 'src/index.ts', old_string: '42', new_string: '43' } },
    ];
    const seen = await attack(fixture, [...calls, ...allowed], { permissions: { allow: ['edit(src/**)'] }, defaultPermission: 'deny' });
    expectRefused(calls, seen.slice(0, calls.length), /denied|deny|no rule/i);
    for (const [index, call] of allowed.entries()) expect(seen[calls.length + index]?.isError, `${call.name}: ${seen[calls.length + index]?.text}`).toBe(false);
    expect(await readFile(join(fixture.cwd, 'README.md'), 'utf8')).toBe('# project\n');
    expect((await readdir(fixture.cwd)).includes('planted.md')).toBe(false);
    const after = await hashTree(fixture.cwd);
    const changed = Object.keys({ ...protectedBefore, ...after }).filter((key) => protectedBefore[key] !== after[key]);
    expect(changed.sort()).toEqual(['./src/fine.ts', './src/index.ts']);
  });
});
