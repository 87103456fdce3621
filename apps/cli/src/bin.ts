#!/usr/bin/env node
import { runCli } from './cli.js';

// `cairn agents | head -1`: once the reader has what it wanted and closed the pipe, the next write
// fails with EPIPE. That is the reader's choice, not a failure: stop quietly, as `cat` or `ls` do.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

/**
 * Exit as soon as the command is done and its output is flushed. Waiting for the event loop to
 * empty instead costs about 100 ms after every run: the HTTP client's idle keep-alive socket and
 * similar handles linger, though nothing is left to do (the agent and its store are closed).
 */
function exitWhenFlushed(code: number): void {
  process.exitCode = code;
  let pending = 2;
  const done = () => {
    if (--pending === 0) process.exit(code);
  };
  process.stdout.write('', done);
  process.stderr.write('', done);
}

// process.stdin is created on first access (a few ms for a terminal or file stream): only commands
// that read it pay for it, `cairn --help` does not.
const io = {
  argv: process.argv,
  get stdin() {
    return process.stdin;
  },
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
};

runCli(io).then(exitWhenFlushed, (error: unknown) => {
  process.stderr.write(`cairn: ${error instanceof Error ? error.message : String(error)}\n`);
  exitWhenFlushed(1);
});
