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

runCli({ argv: process.argv, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env }).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`cairn: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
