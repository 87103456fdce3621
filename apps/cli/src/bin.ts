#!/usr/bin/env node
import { runCli } from './cli.js';

runCli({ argv: process.argv, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env }).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`cairn: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
