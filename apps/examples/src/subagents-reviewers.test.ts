import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSubagentsExample } from './subagents-reviewers.js';

describe('subagents example', () => {
  it('hands work to two named subagents at once and reports their answers', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'cairn-example-'));
    await mkdir(join(cwd, 'src'));
    await writeFile(join(cwd, 'src', 'sum.ts'), 'export const sum = (xs: number[]) => xs.length;\n');
    const lines: string[] = [];
    const result = await runSubagentsExample({ cwd, log: (line) => lines.push(line) });
    expect(result.status).toBe('finished');
    expect(lines).toContain('  [task code-reviewer] running: review sum.ts');
    expect(lines).toContain('  [task test-writer] finished: tests for sum.ts');
    expect(lines).toContain('  [task result] src/sum.ts:1 starts the loop at 1, so the first element is never added.');
    expect(lines).toContain('  [task result] empty array gives 0; one element; negative numbers; a large array.');
  });
});
