import { mkdir, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { globFileSearchTool, normalizeGlobPattern } from './glob-file-search.js';
import { createTestToolContext, createWorkspace, run, textOf } from './test-support/tool-context.js';

async function setup() {
  const workspace = await createWorkspace();
  const { root } = workspace;
  await mkdir(join(root, 'src/deep/er'), { recursive: true });
  await mkdir(join(root, 'node_modules/pkg'), { recursive: true });
  await mkdir(join(root, 'build'));
  await writeFile(join(root, '.gitignore'), 'build/\n');
  await writeFile(join(root, 'src/.cairnignore'), 'generated.ts\n');
  const files = ['src/a.ts', 'src/deep/b.ts', 'src/deep/er/c.ts', 'src/generated.ts', 'node_modules/pkg/index.ts', 'build/out.ts', 'README.md'];
  for (const [index, file] of files.entries()) {
    await writeFile(join(root, file), '');
    const time = new Date(Date.UTC(2024, 0, 1 + index));
    await utimes(join(root, file), time, time);
  }
  return { ...workspace, ...createTestToolContext(root) };
}

const glob = (input: unknown, context: Parameters<typeof run>[2]) => run(globFileSearchTool, input, context);

describe('glob_file_search', () => {
  it('matches anywhere, newest first, ignore files respected', async () => {
    const { context } = await setup();
    expect(await glob({ pattern: '*.ts' }, context)).toBe(['src/deep/er/c.ts', 'src/deep/b.ts', 'src/a.ts'].join('\n'));
    expect(await glob({ pattern: 'deep/*.ts' }, context)).toBe('src/deep/b.ts');
    expect(await glob({ pattern: '**/er/*.ts', path: 'src' }, context)).toBe('src/deep/er/c.ts');
    expect(await glob({ pattern: '*.py' }, context)).toMatch(/No files match/);
  });

  it('normalises patterns and refuses ones leaving the folder', () => {
    expect(normalizeGlobPattern('*.ts')).toBe('**/*.ts');
    expect(normalizeGlobPattern('./src/*.ts')).toBe('**/src/*.ts');
    expect(normalizeGlobPattern('**/x')).toBe('**/x');
    expect(() => normalizeGlobPattern('../*.ts')).toThrow(/\.\./);
    expect(() => normalizeGlobPattern('/etc/*')).toThrow(/relative/);
  });

  it('honours deny rules: a denied .env never shows', async () => {
    const { root } = await setup();
    await writeFile(join(root, '.env'), 'SECRET=1');
    await writeFile(join(root, 'src/.env'), 'SECRET=2');
    await symlink('../.env', join(root, 'src/env-link'));
    const { context } = createTestToolContext(root, { deny: (path, tool) => tool === 'read' && path.endsWith('.env') });
    expect(await glob({ pattern: '*env*' }, context)).toMatch(/No files match/);
    const open = createTestToolContext(root);
    expect(textOf(await glob({ pattern: '*env*' }, open.context)).split('\n').sort()).toEqual(['.env', 'src/.env', 'src/env-link']);
  });

  it('symlink loops and links out of the workspace end and are not followed', async () => {
    const { root, outside, context } = await setup();
    await symlink(root, join(root, 'src/loop'));
    await symlink('.', join(root, 'src/deep/self'));
    await symlink(outside, join(root, 'src/evil'));
    await symlink(join(outside, 'secret.txt'), join(root, 'src/secret.txt'));
    expect(await glob({ pattern: '*.ts' }, context)).toBe(['src/deep/er/c.ts', 'src/deep/b.ts', 'src/a.ts'].join('\n'));
    expect(await glob({ pattern: 'secret.txt' }, context)).toMatch(/No files match/);
  });

  it('caps results with a notice', async () => {
    const { root } = await setup();
    await mkdir(join(root, 'many'));
    for (let index = 0; index < 30; index++) await writeFile(join(root, `many/f${index}.txt`), '');
    const { context } = createTestToolContext(root, { settings: { maxResults: 5 } });
    const result = await glob({ pattern: '*.txt' }, context);
    expect(result).toMatchObject({ truncated: true });
    expect(textOf(result).split('\n')).toHaveLength(6);
    expect(textOf(result)).toContain('Showing the 5 newest of 30 matches');
  });

  it('a huge tree ends within the visit cap with a notice', async () => {
    const { root } = await setup();
    for (let folder = 0; folder < 20; folder++) {
      await mkdir(join(root, `tree/d${folder}`), { recursive: true });
      for (let file = 0; file < 20; file++) await writeFile(join(root, `tree/d${folder}/f${file}.js`), '');
    }
    const { context } = createTestToolContext(root, { settings: { maxVisited: 100 } });
    const text = textOf(await glob({ pattern: '*.js' }, context));
    expect(text).toContain('stopped after 100 entries');
  });

  it('pathological patterns finish', async () => {
    const { root, context } = await setup();
    await writeFile(join(root, `${'a'.repeat(200)}.txt`), '');
    expect(await glob({ pattern: `${'*a'.repeat(30)}*b` }, context)).toMatch(/No files match/);
    await expect(glob({ pattern: '{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}{o,p}{q,r}{s,t}' }, context)).rejects.toThrow(/more than 256 alternatives/);
    expect(await glob({ pattern: '{a,b}{c,d}*.{txt,md}' }, context)).toMatch(/No files match/);
    await expect(glob({ pattern: 'x'.repeat(2000) }, context)).rejects.toThrow(/too long/);
  });

  it('refuses a search folder outside the workspace or in the proj-evil sibling', async () => {
    const { outside, context } = await setup();
    await expect(glob({ pattern: '*', path: '..' }, context)).rejects.toThrow(/outside the workspace/);
    await expect(glob({ pattern: '*', path: '../proj-evil' }, context)).rejects.toThrow(/outside the workspace/);
    await expect(glob({ pattern: '*', path: outside }, context)).rejects.toThrow(/outside the workspace/);
  });
});
