import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listDirTool } from './list-dir.js';
import { createTestToolContext, createWorkspace, run, textOf } from './test-support/tool-context.js';

async function setup() {
  const workspace = await createWorkspace();
  const { root } = workspace;
  await mkdir(join(root, 'src/lib'), { recursive: true });
  await mkdir(join(root, 'node_modules/pkg'), { recursive: true });
  await mkdir(join(root, 'dist'));
  await writeFile(join(root, '.gitignore'), 'dist/\n*.log\n');
  await writeFile(join(root, 'README.md'), '# hi\n');
  await writeFile(join(root, 'debug.log'), 'noise');
  await writeFile(join(root, 'src/index.ts'), 'export {};\n');
  await writeFile(join(root, 'src/index.test.ts'), 'test();\n');
  await writeFile(join(root, 'src/lib/util.ts'), 'export const x = 1;\n');
  await writeFile(join(root, 'node_modules/pkg/index.js'), '');
  await writeFile(join(root, 'dist/out.js'), '');
  return { ...workspace, ...createTestToolContext(root) };
}

const list = (input: unknown, context: Parameters<typeof run>[2]) => run(listDirTool, input, context);

describe('list_dir', () => {
  it('lists a tree with folders marked by "/" and sizes, respecting ignore files', async () => {
    const { context } = await setup();
    expect(await list({}, context)).toBe(
      ['./', '  .gitignore (12 B)', '  README.md (5 B)', '  src/', '    index.test.ts (8 B)', '    index.ts (11 B)', '    lib/', '      util.ts (20 B)'].join('\n'),
    );
  });

  it('lists a subfolder and applies ignore patterns', async () => {
    const { context } = await setup();
    expect(await list({ path: 'src', ignore: ['*.test.ts', 'lib/**'] }, context)).toBe(['src/', '  index.ts (11 B)'].join('\n'));
  });

  it('shows symlinks as links and never follows them out of the workspace (nor into loops)', async () => {
    const { root, outside, context } = await setup();
    await symlink(outside, join(root, 'src/evil'));
    await symlink('..', join(root, 'src/lib/loop'));
    const text = textOf(await list({ path: 'src' }, context));
    expect(text).toContain(`evil -> ${outside} (outside the workspace, not followed)`);
    expect(text).toContain('loop -> .. (folder, not followed)');
    expect(text).not.toContain('secret.txt');
  });

  it('caps depth and entries with a truncation notice', async () => {
    const { root } = await setup();
    await mkdir(join(root, 'a/b/c/d/e'), { recursive: true });
    for (let index = 0; index < 30; index++) await writeFile(join(root, `src/file-${String(index).padStart(2, '0')}.ts`), '');
    const { context } = createTestToolContext(root, { settings: { maxEntries: 10, maxDepth: 2 } });
    const result = await list({}, context);
    expect(result).toMatchObject({ truncated: true });
    const text = textOf(result);
    expect(text).toContain('Listing cut at 10 entries');
    expect(text).toContain('deeper than 2 levels');
    expect(text).not.toContain('d/');
  });

  it('lists an explicitly requested ignored folder', async () => {
    const { context } = await setup();
    const text = textOf(await list({ path: 'node_modules/pkg' }, context));
    expect(text).toContain('index.js (0 B)');
    expect(text).toContain('itself ignored');
  });

  it('drops denied entries', async () => {
    const { root } = await setup();
    await writeFile(join(root, '.env'), 'SECRET=1');
    const { context } = createTestToolContext(root, { deny: (path, tool) => tool === 'read' && path.endsWith('.env') });
    expect(textOf(await list({}, context))).not.toContain('.env');
  });

  it('refuses paths outside, the proj-evil sibling and files', async () => {
    const { outside, context } = await setup();
    await expect(list({ path: '..' }, context)).rejects.toThrow(/outside the workspace/);
    await expect(list({ path: '../proj-evil' }, context)).rejects.toThrow(/outside the workspace/);
    await expect(list({ path: outside }, context)).rejects.toThrow(/outside the workspace/);
    await expect(list({ path: 'README.md' }, context)).rejects.toThrow(/read_file/);
  });
});
