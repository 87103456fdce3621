import { spawn } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join, } from 'node:path';
import { createInterface } from 'node:readline';
import type { ScriptedTurn } from '@cairn/core/testing';
import { describe, expect, it } from 'vitest';
import { bundleFixture, packageRoot } from './fixtures/bundle-fixture.js';
import { attackTurn, createFixture, type Fixture, git, hashTree, resultsSeen, runAgent, type SeenResult } from './security-helpers.js';

// Issue 12, class 3: check-then-use races in the file tools. A sandboxed background command swaps
// the folder `sub` for a symbolic link to the sibling `proj-evil` (and back) as fast as it can,
// while the model sends file-tool calls aimed at `sub/...`. The outside folder holds files with the
// same names and distinctive contents, so an operation that resolved `sub` once and then used the
// path again would read, change, create or delete something outside. Nothing outside may change,
// no outside byte or name may reach the model, and nothing may be created outside, over many turns.

const sandboxed = { local: { sandboxOptions: { enabled: true } } } as const;
const notebook = (text: string) =>
  `${JSON.stringify({ cells: [{ cell_type: 'code', execution_count: null, id: 'c1', metadata: {}, outputs: [], source: [text] }], metadata: {}, nbformat: 4, nbformat_minor: 5 }, null, 1)}\n`;

/** The inside folder `sub` and its evil twin: the same names, contents that say where they are. */
async function raceFixture(): Promise<Fixture> {
  const fixture = await createFixture();
  const inside = join(fixture.cwd, 'sub');
  await mkdir(inside);
  for (const [folder, word] of [[inside, 'inside'], [fixture.evil, 'evil']] as const) {
    await writeFile(join(folder, 'secret.txt'), `${word} secret\n`);
    await writeFile(join(folder, 'notes.txt'), `${word} notes\n`);
    await writeFile(join(folder, 'book.ipynb'), notebook(`${word} = 1\n`));
    for (let index = 0; index < 40; index++) await writeFile(join(folder, `victim-${index}.txt`), `${word} victim\n`);
  }
  await writeFile(join(fixture.evil, 'evil-only-name.txt'), 'evil secret\n');
  await writeFile(join(fixture.cwd, '.gitignore'), '.racer-*\nstray-*\nsub.real\n');
  return fixture;
}

// Runs inside the sandbox (workspace-write): `sub` is the real folder, then a fresh link to
// ../proj-evil, then the real folder again, as fast as it can. A folder a tool created in the gap is
// moved aside (`stray-N`), so the loop never stalls. Stops on `.racer-stop` or after 60 s.
const racerScript = [
  "const fs = require('fs');",
  'let swaps = 0; let strays = 0; const end = Date.now() + 60000;',
  "fs.writeFileSync('.racer-ready', '');",
  "while (Date.now() < end && !fs.existsSync('.racer-stop')) {",
  '  for (let i = 0; i < 200; i++) {',
  "    try { fs.renameSync('sub', 'sub.real'); } catch {}",
  "    try { fs.symlinkSync('../proj-evil', 'sub'); } catch {}",
  "    try { if (fs.lstatSync('sub').isSymbolicLink()) fs.unlinkSync('sub'); else fs.renameSync('sub', 'stray-' + strays++); } catch {}",
  "    try { fs.renameSync('sub.real', 'sub'); swaps++; } catch {}",
  '  }',
  '}',
  "fs.writeFileSync('.racer-count', String(swaps));",
].join('\n');

async function temporaryFilesIn(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true });
  return entries.filter((name) => /\.cairn-[0-9a-f]+\.tmp$|\.ipynb\.[0-9a-f]+\.tmp$/.test(name));
}

function racerCommand(): string {
  return `'${process.execPath}' .racer-script.js`;
}

/** One turn: every file tool aimed at `sub/...`, several times each. */
function attackCalls(turn: number): Array<{ name: string; args: Record<string, unknown> }> {
  const calls: Array<{ name: string; args: Record<string, unknown> }> = [];
  for (let copy = 0; copy < 2; copy++) {
    const victim = turn * 2 + copy;
    calls.push(
      { name: 'write', args: { path: `sub/new-${turn}-${copy}.txt`, contents: 'planted\n' } },
      { name: 'write', args: { path: `sub/deep-${turn}-${copy}/new.txt`, contents: 'planted\n' } },
      { name: 'write', args: { path: 'sub/notes.txt', contents: 'overwritten\n' } },
      { name: 'search_replace', args: { path: 'sub/secret.txt', old_string: 'secret', new_string: 'replaced', replace_all: true } },
      { name: 'search_replace', args: { path: `sub/created-${turn}-${copy}.txt`, old_string: '', new_string: 'planted\n' } },
      { name: 'edit_file', args: { path: 'sub/notes.txt', instructions: 'I rewrite it', code_edit: 'edited notes\n' } },
      { name: 'edit_file', args: { path: `sub/sketch-${turn}-${copy}.txt`, instructions: 'I create it', code_edit: 'planted\n' } },
      { name: 'edit_notebook', args: { path: 'sub/book.ipynb', cell_index: 0, new_source: `edited_${turn} = 2\n` } },
      { name: 'edit_notebook', args: { path: `sub/new-${turn}-${copy}.ipynb`, cell_index: 0, new_source: 'x = 1\n', edit_mode: 'insert' } },
      { name: 'delete_file', args: { path: `sub/victim-${victim}.txt` } },
      { name: 'read_file', args: { path: 'sub/secret.txt' } },
      { name: 'read_file', args: { path: 'sub/notes.txt' } },
      { name: 'grep', args: { pattern: 'secret|notes|victim', path: 'sub' } },
      { name: 'grep', args: { pattern: 'evil|secret' } },
      { name: 'grep', args: { pattern: 'secret', path: 'sub/secret.txt' } },
      { name: 'list_dir', args: { path: 'sub' } },
      { name: 'glob_file_search', args: { pattern: '*.txt', path: 'sub' } },
    );
  }
  return calls;
}

// Headless, the permission engine already refuses a call whose path resolves outside when it is
// checked. With every call approved (canUseTool), only the tools' own confinement stands, and with
// the built-in grep engine the search walks the tree itself instead of a jailed ripgrep.
const approveAll = { canUseTool: () => 'allow' as const };
const variants: Array<[string, Parameters<typeof runAgent>[2]]> = [
  ['headless', sandboxed],
  ['every call approved', { ...sandboxed, ...approveAll }],
  ['every call approved, built-in grep engine', { ...sandboxed, ...approveAll, toolSettings: { engine: 'builtin' } }],
];

describe.each(variants)('file tools: a folder swapped for a symlink while the tools work (%s)', (_name, options) => {
  it('never reads, changes, creates or deletes anything outside, over many turns', { timeout: 240_000 }, async () => {
    const fixture = await raceFixture();
    await writeFile(join(fixture.cwd, '.racer-script.js'), racerScript);
    const evilBefore = await hashTree(fixture.evil, 'proj-evil');
    const turns = 12;
    const script: ScriptedTurn[] = [
      attackTurn(
        [
          { name: 'run_terminal_cmd', args: { command: racerCommand(), is_background: true } },
          { name: 'run_terminal_cmd', args: { command: 'for i in $(seq 1 200); do [ -e .racer-ready ] && break; sleep 0.05; done; ls .racer-ready', timeout_ms: 20_000 } },
        ],
        'start',
      ),
    ];
    for (let turn = 0; turn < turns; turn++) script.push(attackTurn(attackCalls(turn), `t${turn}-`));
    script.push(
      attackTurn(
        [{ name: 'run_terminal_cmd', args: { command: 'touch .racer-stop; for i in $(seq 1 100); do [ -e .racer-count ] && break; sleep 0.05; done; cat .racer-count', timeout_ms: 20_000 } }],
        'stop',
      ),
    );
    // Once the racer stopped, the same tools work normally on the same folder.
    const afterWrites = [
      { name: 'write', args: { path: 'sub/final.txt', contents: 'final\n' } },
      { name: 'edit_notebook', args: { path: 'sub/final.ipynb', cell_index: 0, new_source: 'x = 1\n', edit_mode: 'insert' } },
    ];
    const afterReads = [
      { name: 'read_file', args: { path: 'sub/final.txt' } },
      { name: 'grep', args: { pattern: 'final', path: 'sub' } },
      { name: 'list_dir', args: { path: 'sub' } },
    ];
    script.push(attackTurn(afterWrites, 'written'), attackTurn(afterReads, 'read'), { text: 'done' });
    const { model, result } = await runAgent(fixture, script, options);
    expect(result.status).toBe('finished');

    // The racer really ran and swapped many times during the calls.
    const started = resultsSeen(model.calls[1]);
    expect(started.start1?.text, JSON.stringify(started)).toContain('.racer-ready');
    const stopped = resultsSeen(model.calls[turns + 2]);
    expect(Number(/(\d+)/.exec(stopped.stop0?.text ?? '')?.[1] ?? 0), stopped.stop0?.text).toBeGreaterThan(1000);

    const seen: SeenResult[] = [];
    const all = resultsSeen(model.calls[turns + 2]);
    for (let turn = 0; turn < turns; turn++) {
      for (let index = 0; index < attackCalls(turn).length; index++) seen.push(all[`t${turn}-${index}`] as SeenResult);
    }
    expect(seen.length).toBe(turns * attackCalls(0).length);
    // No outside byte and no outside name reached the model; nothing outside changed, appeared (temp
    // files of atomic writes included) or disappeared. Collected first, so a failure shows them all.
    const outsideContent = /evil (secret|notes|victim)|evil = 1|evil-only-name/;
    const leaks = seen.filter((entry) => outsideContent.test(entry.text)).map((entry) => `${entry.toolName} returned: ${entry.text.slice(0, 200)}`);
    const evilNow = await hashTree(fixture.evil, 'proj-evil');
    const changed = [...new Set([...Object.keys(evilBefore), ...Object.keys(evilNow)])].filter((key) => evilBefore[key] !== evilNow[key]);
    expect({ leaks, changedOutside: changed }).toEqual({ leaks: [], changedOutside: [] });
    // Not everything is refused while the folder is swapped (a call that saw the real folder works),
    // and once the racer stopped every call works again.
    expect(seen.filter((entry) => !entry.isError).length).toBeGreaterThan(0);
    const afterSeen = resultsSeen(model.calls[turns + 4]);
    for (const [prefix, calls] of [['written', afterWrites], ['read', afterReads]] as const) {
      for (const [index, call] of calls.entries()) expect(afterSeen[`${prefix}${index}`]?.isError, `${call.name}: ${afterSeen[`${prefix}${index}`]?.text}`).toBe(false);
    }
    expect(afterSeen.read0?.text).toContain('final');
    expect(afterSeen.read1?.text).toContain('sub/final.txt:1:final');
    expect((await readdir(fixture.base)).sort()).toEqual(['home', 'proj', 'proj-evil']);
    // No temp file of an atomic write was left anywhere in the workspace either.
    expect(await temporaryFilesIn(fixture.cwd)).toEqual([]);
    // git on the host sees only the workspace's own files.
    expect(git(fixture.cwd, 'status', '--porcelain')).not.toMatch(/evil-only-name/);
    expect(await readFile(join(fixture.evil, 'secret.txt'), 'utf8')).toBe('evil secret\n');
  });
});

/** Bundle the write child from the current sources so plain node can run it (and SIGKILL it). */
function buildWriteChild(): Promise<{ script: string; dispose(): Promise<void> }> {
  const outDir = join(packageRoot, 'node_modules', '.cache', `cairn-write-child-${process.pid}`);
  return bundleFixture('write-child', { outDir, noExternal: [/^@cairn\//, 'zod'], external: ['vitest'], requireShim: true });
}

/** Start the child, wait until a temp file of its write exists, then SIGKILL it; returns that file's name. */
async function killDuringWrite(script: string, cwd: string): Promise<string | undefined> {
  const child = spawn(process.execPath, [script, JSON.stringify({ cwd, path: 'big.txt', megabytes: 48 })], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<void>((resolveExit) => child.on('exit', () => resolveExit()));
  const lines = createInterface({ input: child.stdout });
  let done = false;
  lines.on('line', (line) => (done ||= line.includes('"done"')));
  const deadline = Date.now() + 60_000;
  let temporary: string | undefined;
  while (!temporary && !done && Date.now() < deadline && child.exitCode === null) {
    temporary = (await readdir(cwd)).find((name) => name.startsWith('.big.txt.cairn-'));
    if (!temporary) await new Promise((resolveWait) => setImmediate(resolveWait));
  }
  child.kill('SIGKILL');
  await exited;
  if (!temporary && !done) throw new Error(`the child never started its write; stderr: ${stderr}`);
  return temporary;
}

describe('file tools: a write killed with SIGKILL', () => {
  it('leaves the target untouched, and the next run removes the temp file the dead writer left', { timeout: 180_000 }, async () => {
    const child = await buildWriteChild();
    try {
      let leftover: string | undefined;
      let fixture: Fixture | undefined;
      // The write takes a moment (48 MB, then fsync); in the rare try where it finished before the
      // kill, there is nothing to clean up, so try again.
      for (let attempt = 0; attempt < 5 && !leftover; attempt++) {
        fixture = await createFixture();
        leftover = await killDuringWrite(child.script, fixture.cwd);
      }
      expect(leftover, 'no write was caught in the middle').toBeDefined();
      const cwd = (fixture as Fixture).cwd;
      expect(await readdir(cwd)).toContain(leftover);
      // Atomic: the target never appeared half-written.
      expect(await readdir(cwd)).not.toContain('big.txt');
      // The next run (another process: the writer's pid is gone) removes it at its first write.
      const { model, result } = await runAgent(fixture as Fixture, [attackTurn([{ name: 'write', args: { path: 'after.txt', contents: 'next run\n' } }]), { text: 'done' }]);
      expect(result.status).toBe('finished');
      expect(resultsSeen(model.calls[1]).a0?.isError).toBe(false);
      expect(await readdir(cwd)).not.toContain(leftover);
      expect(await temporaryFilesIn(cwd)).toEqual([]);
    } finally {
      await child.dispose();
    }
  });
});
