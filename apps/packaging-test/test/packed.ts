import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The monorepo root, and the version of a catalog entry (what `pnpm pack` writes for `catalog:`). */
export const repoRoot = new URL('../../../', import.meta.url).pathname.replace(/\/$/, '');

export async function catalogVersion(name: string): Promise<string> {
  const workspace = await readFile(join(repoRoot, 'pnpm-workspace.yaml'), 'utf8');
  const line = workspace.split('\n').find((text) => text.trim().replace(/"/g, '').startsWith(`${name}:`));
  if (!line) throw new Error(`${name} is not in the catalog of pnpm-workspace.yaml`);
  return line.split(':').slice(1).join(':').trim();
}

/** Unpack a tarball into `dest` (npm tarballs hold one `package/` folder); returns that folder. */
export async function unpack(tarball: string, dest: string): Promise<string> {
  await mkdir(dest, { recursive: true });
  await run('tar', ['-xzf', tarball, '-C', dest]);
  return join(dest, 'package');
}

/** `npm install` in `project`, the way a user would, but quiet; resolves to the seconds it took. */
export async function npmInstall(project: string): Promise<number> {
  const started = performance.now();
  const env = { ...process.env };
  // better-sqlite3 compiles against Node's headers when no prebuilt binary can be downloaded.
  if (!env.npm_config_nodedir) env.npm_config_nodedir = '/usr';
  await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: project, env, maxBuffer: 64 * 1024 * 1024 });
  return (performance.now() - started) / 1000;
}

/** Every file an `exports` map can resolve to, for the conditions npm users get (`types`, `import`, `default`). */
export function exportTargets(exportsField: unknown): string[] {
  if (typeof exportsField === 'string') return [exportsField];
  if (!exportsField || typeof exportsField !== 'object') return [];
  return Object.values(exportsField).flatMap(exportTargets);
}

/** Dependency fields with a version protocol that only a pnpm workspace understands. */
export function workspaceProtocols(manifest: Record<string, unknown>): string[] {
  const fields = ['dependencies', 'peerDependencies', 'optionalDependencies', 'devDependencies'];
  return fields.flatMap((field) =>
    Object.entries((manifest[field] ?? {}) as Record<string, string>)
      .filter(([, version]) => /^(workspace|catalog):/.test(version))
      .map(([name, version]) => `${field}.${name}: ${version}`),
  );
}

export async function writeJson(file: string, value: unknown): Promise<void> {
  await writeFile(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** The fake server of the installed `@cairn/core/testing`, in its own process inside `project`. */
export async function startFakeServer(project: string, turns: unknown[]): Promise<{ url: string; stop: () => void }> {
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, ['fake-server.mjs', JSON.stringify(turns)], { cwd: project, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) resolve(out.trim());
    });
    child.once('exit', (code) => reject(new Error(`the fake server exited with ${code} before printing its URL`)));
  });
  return { url, stop: () => child.kill('SIGTERM') };
}

/** Run a program to its end; rejects with its output when it fails. */
export async function runProgram(command: string, args: string[], options: { cwd: string; env: Record<string, string | undefined> }) {
  return run(command, args, { ...options, maxBuffer: 16 * 1024 * 1024 });
}
