import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { beforeAll } from 'vitest';
import { runCli } from '../src/cli.js';

/** Run the CLI in-process with captured stdout/stderr and a closed stdin. */
export function io(args: string[], env: Record<string, string | undefined> = process.env) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough() as unknown as NodeJS.ReadStream;
  (stdin as unknown as PassThrough).end();
  let out = '';
  let err = '';
  stdout.on('data', (chunk) => (out += chunk));
  stderr.on('data', (chunk) => (err += chunk));
  return {
    run: () => runCli({ argv: ['node', 'cairn', ...args], stdin, stdout: stdout as unknown as NodeJS.WriteStream, stderr: stderr as unknown as NodeJS.WriteStream, env }),
    out: () => out,
    err: () => err,
  };
}

/** The CLI's default store is SQLite under CAIRN_HOME: keep it in a temp folder for the file's tests. */
export function useTempCairnHome(): void {
  beforeAll(async () => {
    process.env.CAIRN_HOME = await mkdtemp(join(tmpdir(), 'cairn-home-'));
  });
}
