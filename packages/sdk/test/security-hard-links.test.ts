import { link, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFixture, type Fixture, attack, type Call } from './security-helpers.js';

// Issue 12, class 11 (finding 7 of docs/security-tests.md): a hard link is the same file under
// another name, and its other names cannot be listed. Outside `node_modules` a hard link may be an
// outside file (made on the host: the sandbox cannot link across its bind mount), so its contents
// are refused by every tool; below `node_modules` package managers install hard links into their
// stores (pnpm's node_modules/.pnpm), and reading dependency sources there keeps working. grep
// behaves exactly like read_file, with either engine. Writes to any hard link stay refused.

/** `hard.txt` and `docs/notes.md` are other names of outside files; the package file is one of a store. */
async function hardLinkFixture(): Promise<Fixture> {
  const fixture = await createFixture();
  await mkdir(join(fixture.cwd, 'docs'));
  await link(join(fixture.evil, 'secret.txt'), join(fixture.cwd, 'hard.txt'));
  await link(join(fixture.home, '.ssh', 'id_rsa'), join(fixture.cwd, 'docs', 'notes.md'));
  const store = join(fixture.base, 'pnpm-store');
  await mkdir(store);
  await writeFile(join(store, 'index.js'), 'export const fromTheStore = true;\n');
  await mkdir(join(fixture.cwd, 'node_modules', '.pnpm', 'dep@1.0.0', 'node_modules', 'dep'), { recursive: true });
  await link(join(store, 'index.js'), join(fixture.cwd, 'node_modules', '.pnpm', 'dep@1.0.0', 'node_modules', 'dep', 'index.js'));
  return fixture;
}

describe.each(['ripgrep', 'builtin'])('file tools: hard links (grep engine %s)', (engine) => {
  it('refuses an outside file reached through a hard link in read_file, grep and delete_file alike', async () => {
    const fixture = await hardLinkFixture();
    const calls: Call[] = [
      { name: 'read_file', args: { path: 'hard.txt' } },
      { name: 'read_file', args: { path: 'docs/notes.md' } },
      { name: 'grep', args: { pattern: 'secret|PRIVATE' } },
      { name: 'grep', args: { pattern: 'secret', path: 'hard.txt' } },
      { name: 'grep', args: { pattern: 'PRIVATE', path: 'docs' } },
      { name: 'grep', args: { pattern: 'secret|PRIVATE', output_mode: 'files_with_matches' } },
      { name: 'grep', args: { pattern: 'secret|PRIVATE', output_mode: 'count' } },
      { name: 'write', args: { path: 'hard.txt', contents: 'pwned\n' } },
      { name: 'delete_file', args: { path: 'docs/notes.md' } },
    ];
    const seen = await attack(fixture, calls, { toolSettings: { engine } });
    for (const [index, call] of calls.entries()) {
      expect(seen[index]?.text, `${call.name} ${JSON.stringify(call.args)}`).not.toMatch(/evil secret|PRIVATE KEY/);
      // Not even the names: grep's files and counts modes would tell which linked file matched.
      if (call.name === 'grep') expect(seen[index]?.text, `${call.name} ${JSON.stringify(call.args)}`).not.toMatch(/hard\.txt|notes\.md/);
    }
    for (const index of [0, 1, 7, 8]) expect(seen[index]?.isError, calls[index]?.name).toBe(true);
    expect(seen[0]?.text).toMatch(/hard link/);
    expect(seen[8]?.text).toMatch(/hard link/);
    // The grep results say nothing about those files; a search of the file itself finds nothing.
    expect(seen[3]?.text).toBe('No matches found.');
    // Both outside files are unchanged and still there.
    expect(await readFile(join(fixture.evil, 'secret.txt'), 'utf8')).toBe('evil secret\n');
    expect(await readFile(join(fixture.cwd, 'docs', 'notes.md'), 'utf8')).toBe('PRIVATE KEY\n');
  });

  it('reads a package store hard link below node_modules with read_file and grep, and still refuses writing it', async () => {
    const fixture = await hardLinkFixture();
    const path = 'node_modules/.pnpm/dep@1.0.0/node_modules/dep/index.js';
    const calls: Call[] = [
      { name: 'read_file', args: { path } },
      { name: 'grep', args: { pattern: 'fromTheStore', path } },
      { name: 'write', args: { path, contents: 'pwned\n' } },
    ];
    const seen = await attack(fixture, calls, { toolSettings: { engine } });
    expect(seen[0]?.isError, seen[0]?.text).toBe(false);
    expect(seen[0]?.text).toContain('fromTheStore');
    expect(seen[1]?.text).toBe(`${path}:1:export const fromTheStore = true;`);
    expect(seen[2]?.isError).toBe(true);
    expect(seen[2]?.text).toMatch(/hard link/);
  });
});
