import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../spec/errors/index.js';
import { autoRunGuidanceOf, loadPermissionFileContents, loadPermissionLayers } from './permission-files.js';

async function fileWith(content: unknown): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'cairn-permissions-'));
  const path = join(folder, 'permissions.json');
  await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

describe('permissions.json autoRun', () => {
  it('reads the block at the top level or beside the rules, next to the rules', async () => {
    const top = await loadPermissionFileContents(await fileWith({ deny: ['shell(rm*)'], autoRun: { allow_instructions: ['Tests are fine.'], block_instructions: [' No pushing. '] } }), '.cursor/permissions.json');
    expect(top).toEqual({ rules: { deny: ['shell(rm*)'] }, autoRun: { allowInstructions: ['Tests are fine.'], blockInstructions: ['No pushing.'] } });
    const nested = await loadPermissionFileContents(await fileWith({ permissions: { allow: ['shell(npm test)'], autoRun: { block_instructions: ['No deploys.'] } } }), '.cairn/permissions.json');
    expect(nested).toEqual({ rules: { allow: ['shell(npm test)'] }, autoRun: { allowInstructions: [], blockInstructions: ['No deploys.'] } });
    expect(await loadPermissionFileContents(await fileWith({ allow: [] }), '.cairn/permissions.json')).toEqual({ rules: { allow: [] } });
  });

  it('refuses a wrong shape with a ConfigurationError naming the file and the fix', async () => {
    const cases: Array<[unknown, string]> = [
      [{ autoRun: ['No pushing.'] }, '"autoRun" must be an object'],
      [{ autoRun: { block: ['No pushing.'] } }, '"autoRun" has no field "block"'],
      [{ autoRun: { block_instructions: 'No pushing.' } }, '"autoRun.block_instructions" must be an array'],
      [{ autoRun: { allow_instructions: ['ok', 3] } }, '"autoRun.allow_instructions" must be an array'],
      [{ autoRun: { allow_instructions: [''] } }, '"autoRun.allow_instructions" must be an array of non-empty sentences'],
    ];
    for (const [content, message] of cases) {
      const path = await fileWith(content);
      await expect(loadPermissionFileContents(path, '.cursor/permissions.json'), JSON.stringify(content)).rejects.toThrow(ConfigurationError);
      await expect(loadPermissionFileContents(path, '.cursor/permissions.json')).rejects.toThrow(`.cursor/permissions.json: ${message}`);
    }
  });

  it('keeps an untrusted project from loosening the reviewer, and merges the layers in order', async () => {
    const root = await mkdtemp(join(tmpdir(), 'cairn-permissions-root-'));
    const home = join(root, 'home');
    await mkdir(join(root, '.cairn'));
    await mkdir(home);
    await writeFile(join(root, '.cairn', 'permissions.json'), JSON.stringify({ allow: ['shell'], autoRun: { allow_instructions: ['Run anything.'], block_instructions: ['No publishing.'] } }));
    await writeFile(join(home, 'permissions.json'), JSON.stringify({ autoRun: { allow_instructions: ['Tests are fine.'], block_instructions: ['No publishing.'] } }));
    const untrusted = await loadPermissionLayers({ root, home, project: true, user: true, projectTrusted: false });
    expect(untrusted).toEqual([
      { source: 'project', rules: {}, autoRun: { allowInstructions: [], blockInstructions: ['No publishing.'] } },
      { source: 'user', rules: {}, autoRun: { allowInstructions: ['Tests are fine.'], blockInstructions: ['No publishing.'] } },
    ]);
    expect(autoRunGuidanceOf(untrusted)).toEqual({ allowInstructions: ['Tests are fine.'], blockInstructions: ['No publishing.'] });
    const trusted = await loadPermissionLayers({ root, home, project: true, user: false, projectTrusted: true });
    expect(autoRunGuidanceOf(trusted)).toEqual({ allowInstructions: ['Run anything.'], blockInstructions: ['No publishing.'] });
    expect(autoRunGuidanceOf([{}, { autoRun: { allowInstructions: [], blockInstructions: [] } }])).toBeUndefined();
  });
});
