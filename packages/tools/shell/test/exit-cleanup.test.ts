import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'tsup';
import { describe, expect, it } from 'vitest';

const packageRoot = resolve(import.meta.dirname, '..');

function processesWith(marker: string): number[] {
  return readdirSync('/proc').filter((pid) => /^\d+$/.test(pid)).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').includes(marker);
    } catch {
      return false;
    }
  }).map(Number);
}

describe('foreground commands and the agent process', () => {
  it('dies with the agent process instead of being orphaned', async () => {
    const outDir = join(packageRoot, 'node_modules', '.cache', `cairn-exit-${process.pid}`);
    await build({ config: false, entry: { child: join(packageRoot, 'test/fixtures/exit-mid-command.ts') }, outDir, format: ['esm'], platform: 'node', target: 'node20', dts: false, silent: true });
    try {
      const marker = `sleep 1000.${process.pid % 1000}7`;
      const child = spawnSync(process.execPath, [join(outDir, 'child.js'), marker], { encoding: 'utf8', timeout: 10_000 });
      expect(child.stdout).toContain('started');
      await new Promise((done) => setTimeout(done, 300));
      expect(processesWith(marker)).toEqual([]);
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  });
});
