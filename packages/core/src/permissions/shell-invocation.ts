import { type InnerCommand, scriptFrom, unknownCommand } from './inner-command.js';
import type { ShellWord } from './shell-words.js';

// Shells whose scripts the bash grammar reads correctly. The others (zsh's `=rm`, fish, csh) have
// syntax it would misread, so their scripts are treated as unknown programs.
const bashLikeShells = new Set(['sh', 'bash', 'dash', 'ash', 'rbash']);
export const otherShells = new Set(['zsh', 'ksh', 'mksh', 'pdksh', 'yash', 'posh', 'fish', 'csh', 'tcsh']);
const valuedLongOptions = new Set(['--rcfile', '--init-file']);

export function isShell(program: string): boolean {
  return bashLikeShells.has(program) || otherShells.has(program);
}

/** Files that are the shell's own standard input (`. /dev/stdin`, `bash /dev/fd/0`). */
export function namesStdin(path: string): boolean {
  return /^\/dev\/(?:stdin|fd\/0)$|^\/proc\/(?:self|thread-self|\d+)\/fd\/0$|^-$/.test(path);
}

/**
 * What `sh [options] [-c script | file | -s] [args]` runs: the `-c` script, a script file (not
 * judged: the rules judge command lines, the sandbox bounds files), or commands read from stdin.
 * Options are read the way bash reads them, so `bash -c -- 'rm x'`, `bash -o pipefail -c 'rm x'`
 * and `bash --norc -xc 'rm x'` all find the script.
 */
export function shellInvocation(program: string, words: ShellWord[]): InnerCommand[] {
  let commandMode = false;
  let stdinMode = false;
  let index = 0;
  for (; index < words.length; index++) {
    const word = words[index] as ShellWord;
    // A run-time word is taken as the operand: the script, or a script file known only at run time.
    if (word.dynamic) break;
    const value = word.value;
    if (value === '--' || value === '-') {
      index++;
      break;
    }
    if (value.startsWith('--')) {
      if (valuedLongOptions.has(value)) index++;
      continue;
    }
    if (!/^[-+]./.test(value)) break;
    for (const letter of value.slice(1)) {
      if (letter === 'c') commandMode = true;
      else if (letter === 's') stdinMode = true;
      else if (letter === 'o' || letter === 'O') index++;
    }
  }
  const operand = words[index];
  const via = program;
  const language = bashLikeShells.has(program) ? 'shell' : 'other';
  if (commandMode) {
    if (!operand) return [];
    if (language === 'other') return [unknownCommand(via, `${program} scripts are not analysed (only sh, bash and dash are)`)];
    const script = scriptFrom(operand, via);
    return script ? [script] : [];
  }
  if (stdinMode || !operand) return [{ kind: 'stdin', via, language }];
  if (operand.dynamic) return [unknownCommand(via, `${program} runs a script file named only at run time`)];
  if (namesStdin(operand.value)) return [{ kind: 'stdin', via, language }];
  return [];
}
