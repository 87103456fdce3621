import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runHooksExample, writeProjectHooks } from './hooks-block-rm-rf.js';

describe('hooks example: a project hooks.json that blocks rm -rf', () => {
  it('the real shell tool never runs rm -rf; the model reads the hook\'s reason and goes on', async () => {
    const cwd = await realpath(await mkdtemp(join(tmpdir(), 'cairn-example-hooks-')));
    await writeProjectHooks(cwd);
    await mkdir(join(cwd, 'build'));
    await writeFile(join(cwd, 'build/out.js'), 'built');
    const lines: string[] = [];
    const { result, toolResults, problems } = await runHooksExample({ cwd, log: (line) => lines.push(line) });
    expect(result.status).toBe('finished');
    expect(problems).toEqual([]);
    expect(existsSync(join(cwd, 'build/out.js'))).toBe(true);
    expect(toolResults[0]).toContain('This project forbids rm -rf');
    expect(toolResults[1]).toContain('build');
    expect(lines).toContain('! rm -rf is blocked by this project.');
  });
});
