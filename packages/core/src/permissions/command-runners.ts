import { awkInner, builtinInner, interpreterInner, optionRunnerInner, sedInner } from './code-runners.js';
import { findInner, packageRunnerInner, runuserInner, sgInner, unwrapCommand, wrapperSpecs, xargsInner } from './command-wrappers.js';
import { gitInner } from './git-runners.js';
import type { InnerCommand } from './inner-command.js';
import { isShell, shellInvocation } from './shell-invocation.js';
import type { ShellWord } from './shell-words.js';

export type { InnerCommand } from './inner-command.js';

// Package managers' "run a binary" subcommands: `npm exec -- rm x` runs rm from PATH.
const packageRunners: Record<string, string[]> = {
  npm: ['exec', 'x'], pnpm: ['exec', 'dlx'], yarn: ['exec', 'dlx'], uv: ['run'], poetry: ['run'], pipenv: ['run'], bundle: ['exec'], deno: [],
};
const directPackageRunners = new Set(['npx', 'pnpx', 'bunx', 'uvx']);

/**
 * The commands `words` runs besides its own program: the command of a wrapper (`nice`, `timeout`,
 * `xargs`, `find -exec`), the script of a shell (`sh -c`, stdin), code run by an interpreter or
 * tool (`python -c`, `awk 'BEGIN{system(...)}'`, `git -c alias.x='!...'`). The program is matched
 * by its base name, so `/usr/bin/env rm x` is unwrapped like `env rm x`.
 */
export function innerCommands(words: ShellWord[]): InnerCommand[] {
  const [program, ...rest] = words;
  if (!program || program.dynamic) return [];
  const name = program.value.slice(program.value.lastIndexOf('/') + 1);
  const wrapper = Object.hasOwn(wrapperSpecs, name) ? wrapperSpecs[name] : undefined;
  if (wrapper) return unwrapCommand(name, wrapper, rest);
  if (isShell(name)) return shellInvocation(name, rest);
  if (name === 'git') return gitInner(rest);
  if (name === 'xargs') return xargsInner(rest);
  if (name === 'find') return findInner(rest);
  if (name === 'runuser') return runuserInner(rest);
  if (name === 'sg') return sgInner(rest);
  if (name === 'sed' || name === 'gsed') return sedInner(rest);
  if (/^(?:g|m|n)?awk$/.test(name)) return awkInner(name, rest);
  if (directPackageRunners.has(name)) return packageRunnerInner(name, rest);
  const runnerSubcommands = Object.hasOwn(packageRunners, name) ? packageRunners[name] : undefined;
  if (runnerSubcommands && rest[0] && runnerSubcommands.includes(rest[0].value)) return packageRunnerInner(`${name} ${rest[0].value}`, rest.slice(1));
  if (name === 'deno' && rest[0]?.value === 'eval') return [{ kind: 'unknown', via: 'deno eval', reason: 'deno eval runs code given on the command line' }];
  return builtinInner(name, rest) ?? interpreterInner(name, rest) ?? optionRunnerInner(name, rest) ?? [];
}
