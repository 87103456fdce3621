import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPermissionEngine, type PermissionCheckRequest, type PermissionRequest } from './permission-engine.js';

// Files that make other programs run code (sensitive-files.ts): asked when someone can approve.
const root = mkdtempSync(join(tmpdir(), 'cairn-sensitive-'));
const write = (path: string): PermissionCheckRequest => ({ toolId: 'write', toolName: 'write', category: 'fs', readOnly: false, input: {}, paths: [join(root, path)], cwd: root });

describe('writes to files that make other programs run code', () => {
  it('are asked with the reason when canUseTool exists, even when an allow rule matches', async () => {
    const asked: PermissionRequest[] = [];
    const engine = createPermissionEngine({
      layers: [{ source: 'agent', rules: { allow: ['write'] } }],
      canUseTool: (request) => {
        asked.push(request);
        return 'deny';
      },
    });
    const result = await engine.check(write('package.json'));
    expect(result).toMatchObject({ decision: 'deny' });
    expect(result.reason).toMatch(/package\.json needs approval: package\.json tells the package manager what to run/);
    expect(asked).toHaveLength(1);
    expect((await engine.check(write('src/index.ts'))).decision).toBe('allow');
    expect(asked).toHaveLength(1);
  });

  it('go through headless (no approver), and deny rules still win', async () => {
    expect((await createPermissionEngine({ layers: [] }).check(write('.github/workflows/ci.yml'))).decision).toBe('allow');
    const denied = createPermissionEngine({ layers: [{ source: 'user', rules: { deny: ['edit(Makefile)'] } }], canUseTool: () => 'allow' });
    expect((await denied.check({ ...write('Makefile'), toolId: 'edit', toolName: 'search_replace' })).decision).toBe('deny');
  });
});
