import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { beforeAll } from 'vitest';
import { runCli } from '../src/cli.js';

/** A stdout and a stderr whose text the test reads back. */
export function capturedOutput() {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk) => (out += chunk));
  stderr.on('data', (chunk) => (err += chunk));
  return { stdout: stdout as unknown as NodeJS.WriteStream, stderr: stderr as unknown as NodeJS.WriteStream, out: () => out, err: () => err };
}

/** Run the CLI in-process with captured stdout/stderr and a closed, non-terminal stdin holding `input`. */
export function io(args: string[], env: Record<string, string | undefined> = process.env, input = '') {
  const output = capturedOutput();
  const stdin = new PassThrough() as unknown as NodeJS.ReadStream;
  (stdin as unknown as PassThrough).end(input);
  return {
    run: () => runCli({ argv: ['node', 'cairn', ...args], stdin, stdout: output.stdout, stderr: output.stderr, env }),
    out: output.out,
    err: output.err,
  };
}

/** The CLI's default store is SQLite under CAIRN_HOME: keep it in a temp folder for the file's tests. */
export function useTempCairnHome(): void {
  beforeAll(async () => {
    process.env.CAIRN_HOME = await mkdtemp(join(tmpdir(), 'cairn-home-'));
  });
}
