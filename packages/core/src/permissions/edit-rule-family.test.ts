import { describe, expect, it } from 'vitest';
import { createPermissionEngine } from './permission-engine.js';

// Issue 12, class 7: the tools re-check the path they really opened with isPathDenied(path, toolId).
// `edit(...)` names every tool that changes files in check(); isPathDenied must agree, or a write,
// delete or notebook edit through a link escapes a deny rule the engine only saw the link name of.
describe('isPathDenied and the edit rule family', () => {
  it('applies edit(...) deny rules to write, edit, delete and notebook, and read(...) ones to every tool', () => {
    const engine = createPermissionEngine({ layers: [{ source: 'user', rules: { deny: ['edit(src/**)', 'read(.env)'] } }], cwd: '/w' });
    for (const toolId of ['write', 'edit', 'delete', 'notebook']) expect(engine.isPathDenied('/w/src/a.ts', toolId), toolId).toBe(true);
    for (const toolId of ['read', 'grep', 'ls']) expect(engine.isPathDenied('/w/src/a.ts', toolId), toolId).toBe(false);
    for (const toolId of ['read', 'grep', 'write']) expect(engine.isPathDenied('/w/.env', toolId), toolId).toBe(true);
    expect(engine.isPathDenied('/w/lib/a.ts', 'write')).toBe(false);
  });
});
