// The packages are publishable in fact: pack them, check the tarballs, install them with npm into a
// fresh project outside the monorepo, and run there (a) the README's SDK example, (b) a custom agent
// assembled from the separate packages, typechecked against their .d.ts, (c) the installed `cairn`
// bin on a fresh folder — all against the fake server of the installed @cairn/core/testing.
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain JavaScript module of the repository's scripts
import { installManifest, packAll } from '../../../scripts/pack-packages.mjs';
import { catalogVersion, exportTargets, npmInstall, repoRoot, runProgram, startFakeServer, unpack, workspaceProtocols, writeJson } from './packed.js';

interface Tarball {
  name: string;
  dir: string;
  file: string;
}

let work: string;
let project: string;
let tarballs: Tarball[];

beforeAll(async () => {
  work = await realpath(await mkdtemp(join(tmpdir(), 'cairn-packed-')));
  if (!relative(repoRoot, work).startsWith('..')) throw new Error(`the temp folder ${work} is inside the monorepo; set TMPDIR elsewhere`);
  for (const dir of ['packages/core', 'packages/sdk', 'apps/cli']) {
    if (!existsSync(join(repoRoot, dir, 'dist'))) throw new Error(`${dir}/dist is missing: run \`pnpm build\` first (this test packs the built packages)`);
  }
  tarballs = packAll(join(work, 'tarballs'));
  project = join(work, 'project');
  await mkdir(project);
  // @types/node for tsc. No vitest: the fake server's `@cairn/core/testing` needs no test runner.
  const extra = { '@types/node': await catalogVersion('@types/node') };
  await writeJson(join(project, 'package.json'), installManifest(project, tarballs, extra));
  await copyFile(join(import.meta.dirname, '..', 'fake-server.mjs'), join(project, 'fake-server.mjs'));
  const seconds = await npmInstall(project);
  console.log(`npm install of ${tarballs.length} tarballs: ${seconds.toFixed(1)} s`);
});

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the tarballs', () => {
  it('exist for every publishable package, with dist, .d.ts and exports that resolve inside the tarball', async () => {
    expect(tarballs.map((tarball) => tarball.name)).toEqual(expect.arrayContaining(['cairn', '@cairn/sdk', '@cairn/core', '@cairn/tools-mcp']));
    const problems: string[] = [];
    for (const tarball of tarballs) {
      const folder = await unpack(tarball.file, join(work, 'unpacked', tarball.name));
      const manifest = JSON.parse(await readFile(join(folder, 'package.json'), 'utf8')) as Record<string, unknown>;
      problems.push(...workspaceProtocols(manifest).map((problem) => `${tarball.name}: ${problem}`));
      if (JSON.stringify(manifest.exports).includes('cairn-source')) problems.push(`${tarball.name}: exports keep the cairn-source condition`);
      if (existsSync(join(folder, 'src'))) problems.push(`${tarball.name}: ships src/`);
      const targets = [...exportTargets(manifest.exports), ...Object.values((manifest.bin ?? {}) as Record<string, string>)];
      for (const target of targets) if (!existsSync(join(folder, target))) problems.push(`${tarball.name}: ${target} is not in the tarball`);
      // Every code export has .d.ts types; an asset export (a stylesheet, a page) is a plain path without them.
      const codeExports = Object.values((manifest.exports ?? {}) as Record<string, string | { types?: string }>).filter((entry) => typeof entry !== 'string' || !/\.(css|html)$/.test(entry));
      const types = exportTargets(codeExports.map((entry) => (typeof entry === 'string' ? entry : (entry.types ?? ''))));
      if (types.length === 0 || types.some((file) => !file.endsWith('.d.ts'))) problems.push(`${tarball.name}: an export without .d.ts types`);
    }
    expect(problems).toEqual([]);
  });
});

describe('a fresh project with the tarballs installed by npm', () => {
  const env = (url: string, home: string) => ({ PATH: process.env.PATH, HOME: home, CAIRN_HOME: home, OPENAI_API_KEY: 'sk-dummy', OPENAI_BASE_URL: url, OPENAI_API: 'chat' });

  it("runs the README's SDK example", async () => {
    const readme = await readFile(join(repoRoot, 'README.md'), 'utf8');
    const example = readme.split('## The SDK in ten lines')[1]?.match(/```ts\n([\s\S]*?)```/)?.[1];
    expect(example, 'README.md has a ```ts block under "## The SDK in ten lines"').toBeTruthy();
    const workspace = await mkdtemp(join(work, 'sdk-ws-'));
    await writeFile(join(workspace, 'config.js'), 'export const config = JSON.parse(process.env.CONFIG ?? "{}");\n');
    await writeFile(join(project, 'readme-example.mjs'), example!.replace("'/path/to/repo'", JSON.stringify(workspace)));
    const server = await startFakeServer(project, [
      { text: 'Reading the config.', toolCalls: [{ name: 'read_file', args: { path: 'config.js' } }] },
      { text: 'The config is parsed in config.js.' },
      { text: 'Test added.' },
    ]);
    try {
      const { stdout } = await runProgram(process.execPath, ['readme-example.mjs'], { cwd: project, env: env(server.url, await mkdtemp(join(work, 'home-'))) });
      expect(stdout).toContain('[read_file] completed');
      expect(stdout).toContain('The config is parsed in config.js.');
    } finally {
      server.stop();
    }
  });

  it('typechecks a custom agent made of core, a provider, a tool pack, the modes and a store against the packed .d.ts, and runs it', async () => {
    await copyFile(join(import.meta.dirname, '..', 'fixtures', 'custom-agent.ts'), join(project, 'custom-agent.ts'));
    await writeJson(join(project, 'tsconfig.json'), {
      compilerOptions: { target: 'ES2023', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, types: ['node'], outDir: 'out' },
      files: ['custom-agent.ts'],
    });
    // The monorepo's compiler, but every import resolved from the fresh project's node_modules.
    await runProgram(process.execPath, [join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: project, env: process.env });
    const workspace = await mkdtemp(join(work, 'custom-ws-'));
    await writeFile(join(workspace, 'notes.txt'), 'Ship on Friday.\n');
    const server = await startFakeServer(project, [{ toolCalls: [{ name: 'read_file', args: { path: 'notes.txt' } }] }, { text: 'It says: Ship on Friday.' }]);
    try {
      const { stdout } = await runProgram(process.execPath, ['out/custom-agent.js', workspace, join(work, 'custom.db')], { cwd: project, env: env(server.url, await mkdtemp(join(work, 'home-'))) });
      expect(stdout).toBe('[read_file] completed\nresult: finished: It says: Ship on Friday.\n');
      expect(existsSync(join(work, 'custom.db'))).toBe(true);
    } finally {
      server.stop();
    }
  });

  it('runs the installed cairn bin headless on a fresh folder, which it edits', async () => {
    const folder = await mkdtemp(join(work, 'cli-ws-'));
    const bin = join(project, 'node_modules', '.bin', 'cairn');
    const home = await mkdtemp(join(work, 'home-'));
    const version = JSON.parse(await readFile(join(repoRoot, 'apps', 'cli', 'package.json'), 'utf8')).version as string;
    expect((await runProgram(bin, ['--version'], { cwd: folder, env: env('http://127.0.0.1:9/v1', home) })).stdout).toBe(`${version}\n`);
    const server = await startFakeServer(project, [{ toolCalls: [{ name: 'write', args: { path: 'hello.txt', contents: 'hello\n' } }] }, { text: 'Wrote hello.txt.' }]);
    try {
      const { stdout } = await runProgram(bin, ['--model', 'openai/gpt-4.1-mini', 'Write hello.txt'], { cwd: folder, env: env(server.url, home) });
      expect(stdout).toContain('Wrote hello.txt.');
      expect(await readFile(join(folder, 'hello.txt'), 'utf8')).toBe('hello\n');
    } finally {
      server.stop();
    }
  });
});
