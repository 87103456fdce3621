import { type ShellWord, unknownText } from './shell-words.js';

/**
 * What a command runs besides itself, found in its words (`nice rm x` runs `rm x`, `sh -c 'rm x'`
 * runs the script `rm x`). Deny rules judge each inner command as a part of its own.
 */
export type InnerCommand =
  /** A command given as words: judged like any other command (and unwrapped again). */
  | { kind: 'argv'; words: ShellWord[]; via: string }
  /** A shell script given as one word: parsed and judged part by part. */
  | { kind: 'script'; word: ShellWord; via: string }
  /** A shell script read from standard input (`sh`, `bash -s`, `. /dev/stdin`): the analyser knows what stdin holds. */
  | { kind: 'stdin'; via: string; language: 'shell' | 'other' }
  /** A program chosen by code or configuration the command line does not show: it could be any program. */
  | { kind: 'unknown'; via: string; reason: string; unanalysableScript?: boolean };

/** A word the shell does not supply but the wrapper adds at run time (xargs input, find's `{}`). */
export const runTimeWord: ShellWord = { value: '<run-time value>', dynamic: true, glob: false, pattern: unknownText, splits: true };

export function literalWord(value: string): ShellWord {
  return { value, dynamic: false, glob: false, pattern: value, splits: false };
}

/** One script from words joined by spaces, the way `watch`, `ssh` and `eval` join them. */
export function joinedScript(words: ShellWord[], via: string): InnerCommand | undefined {
  if (words.length === 0) return undefined;
  if (words.some((word) => word.dynamic)) return { kind: 'unknown', via, reason: `${via} runs a command built from run-time values`, unanalysableScript: true };
  return { kind: 'script', word: literalWord(words.map((word) => word.value).join(' ')), via };
}

/** A script given as one word: static text is parsed, run-time text could be anything. */
export function scriptFrom(word: ShellWord | undefined, via: string): InnerCommand | undefined {
  if (!word) return undefined;
  if (word.dynamic) return { kind: 'unknown', via, reason: `${via} runs a script that is only known at run time`, unanalysableScript: true };
  return { kind: 'script', word, via };
}

export const unknownCommand = (via: string, reason: string): InnerCommand => ({ kind: 'unknown', via, reason });
