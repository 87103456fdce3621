import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { edit, openSession, processesInGroup, tsWorkspace } from '../../test/diagnostics-workspace.js';
import { editDiagnosticsProvider, languageServersWarm, languageServerStatus } from '../index.js';

// Real typescript-language-server processes (Cairn's own TypeScript) on temp workspaces.
describe('diagnostics after edits', () => {
  it('names the error and line an edit introduced, and says the file is clean after the fix', async () => {
    const root = await tsWorkspace({ 'src/main.ts': "export const greeting = 'hi';\n" });
    const session = openSession(root);
    const broken = await edit(session, root, 'src/count.ts', 'export const count: number = "three";\n', null);
    expect(broken).toContain('src/count.ts: 1 error introduced by this edit:');
    expect(broken).toMatch(/src\/count\.ts:1:14: error TS2322: Type 'string' is not assignable to type 'number'\./);
    const fixed = await edit(session, root, 'src/count.ts', 'export const count: number = 3;\n', 'export const count: number = "three";\n');
    expect(fixed).toContain('src/count.ts: clean, no errors or warnings.');
    expect(fixed).not.toContain('TS2322');
  });

  it('does not blame an edit for errors that were there before, also when the edit moves them', async () => {
    const before = 'export const a: number = "x";\nexport const b = 1;\n';
    const root = await tsWorkspace({ 'src/old.ts': before });
    const session = openSession(root);
    const moved = `// a comment\n${before}`;
    const result = await edit(session, root, 'src/old.ts', moved, before);
    expect(result).toContain('src/old.ts: no new problems (1 error pre-existing, not from this edit).');
    const added = `${moved}export const c: string = 4;\n`;
    const again = await edit(session, root, 'src/old.ts', added, moved);
    expect(again).toContain('src/old.ts: 1 error introduced by this edit (and 1 error pre-existing, not from this edit):');
    expect(again).toMatch(/src\/old\.ts:4:14: error TS2322: Type 'number' is not assignable to type 'string'/);
    expect(again).not.toMatch(/src\/old\.ts:2:14/);
  });

  it('says "diagnostics unavailable" when the server cannot answer in time, never that the file is clean', async () => {
    const root = await tsWorkspace({ 'src/main.ts': 'export const x = 1;\n' });
    const session = openSession(root, { timeoutMs: 1 });
    const result = await edit(session, root, 'src/main.ts', 'export const x: string = 1;\n', 'export const x = 1;\n');
    expect(result).toMatch(/src\/main\.ts: diagnostics unavailable \((language server starting|no answer from the language server within 0 s)\); this does not mean the file has no errors\./);
    expect(result).not.toContain('clean');
  });

  it('is off with toolSettings.diagnostics false (or enabled: false), and refuses a bad shape with the fix', async () => {
    const root = await tsWorkspace({ 'src/main.ts': 'export const x = 1;\n' });
    expect(editDiagnosticsProvider.open({ cwd: root, agentId: 'a', settings: { diagnostics: false }, env: process.env })).toBeUndefined();
    expect(editDiagnosticsProvider.open({ cwd: root, agentId: 'a', settings: { diagnostics: { enabled: false } }, env: process.env })).toBeUndefined();
    // The CLI's --no-diagnostics sets CAIRN_DIAGNOSTICS=off in the agents' environment.
    expect(editDiagnosticsProvider.open({ cwd: root, agentId: 'a', settings: {}, env: { CAIRN_DIAGNOSTICS: 'off' } })).toBeUndefined();
    expect(await languageServerStatus(root)).toEqual([]);
    expect(() => editDiagnosticsProvider.open({ cwd: root, agentId: 'a', settings: { diagnostics: 'off' }, env: process.env })).toThrow(/toolSettings.diagnostics must be false \(off\) or an object/);
    expect(() => editDiagnosticsProvider.open({ cwd: root, agentId: 'a', settings: { diagnostics: { servers: [{ id: 'py', command: [], languages: {} }] } }, env: process.env })).toThrow(/servers\[0\]\.command must be the server's argv/);
  });

  it('starts one server per workspace root in the background, shared by sessions, and leaves no process behind', async () => {
    const root = await tsWorkspace({ 'src/main.ts': 'export const x = 1;\n' });
    const first = openSession(root);
    const second = openSession(root);
    const [status] = await languageServersWarm(root);
    expect(status).toMatchObject({ id: 'typescript', state: 'ready', references: 2 });
    const pid = status?.pid as number;
    expect(processesInGroup(pid).length).toBeGreaterThanOrEqual(2); // the server and its tsserver
    await first.close();
    expect(processesInGroup(pid).length).toBeGreaterThanOrEqual(2);
    await second.close();
    expect(processesInGroup(pid)).toEqual([]);
    expect(await languageServerStatus(root)).toEqual([]);
  });

  it('never loads a tsserver plugin a project tsconfig names (project code does not run)', async () => {
    const marker = 'PLUGIN-RAN';
    const root = await tsWorkspace({
      'tsconfig.json': '{ "compilerOptions": { "strict": true, "plugins": [{ "name": "evil-plugin" }] }, "include": ["src"] }\n',
      'node_modules/evil-plugin/package.json': '{ "name": "evil-plugin", "main": "index.js" }\n',
      'node_modules/evil-plugin/index.js': `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'ran');\nmodule.exports = () => ({ create: (info) => info.languageService });\n`,
      'node_modules/typescript/package.json': '{ "name": "typescript", "version": "0.0.0-planted" }\n',
      'node_modules/typescript/lib/tsserver.js': `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'planted tsserver ran');\n`,
      'src/main.ts': 'export const x = 1;\n',
    });
    const session = openSession(root);
    const result = await edit(session, root, 'src/main.ts', 'export const x: string = 1;\n', 'export const x = 1;\n');
    expect(result).toContain('TS2322');
    await expect(readFile(join(root, marker), 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('re-reads a file the agent changed outside the edit tools before diagnosing the next edit', async () => {
    const root = await tsWorkspace({ 'src/main.ts': 'export const x = 1;\n' });
    const session = openSession(root);
    expect(await edit(session, root, 'src/main.ts', 'export const x = 2;\n', 'export const x = 1;\n')).toContain('clean');
    // The shell wrote a broken version; the next edit's "before" is that text, so its error is pre-existing.
    await writeFile(join(root, 'src/main.ts'), 'export const x: string = 2;\n');
    const result = await edit(session, root, 'src/main.ts', 'export const x: string = 2;\nexport const y = 3;\n', 'export const x: string = 2;\n');
    expect(result).toContain('no new problems (1 error pre-existing');
  });
});
