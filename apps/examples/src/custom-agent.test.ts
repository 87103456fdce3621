import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCustomAgent } from './custom-agent.js';

describe('custom agent example', () => {
  it('runs with a built-in and a custom tool against the scripted model', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'cairn-example-'));
    await writeFile(join(cwd, 'README.md'), '# Demo\nThis workspace was made by the example.\n');
    const lines: string[] = [];
    const result = await runCustomAgent({ cwd, log: (line) => lines.push(line) });
    expect(result.status).toBe('finished');
    expect(lines).toContain('  [word_count] README.md has 9 words.');
    expect(lines.some((line) => line.startsWith('  [read_file]'))).toBe(true);
  });
});
