import { decodeAnsiCString } from './ansi-c-quoting.js';
import type { SyntaxNode } from './bash-parser.js';

/**
 * Stands for text that is only known when the command runs (an expansion, a substitution, a glob)
 * in `ShellWord.pattern`. A NUL byte cannot occur in a shell word, so it never collides with text.
 */
export const unknownText = '\u0000';

/** The value of one shell word as far as it can be known without running anything. */
export interface ShellWord {
  /** The literal value (quotes removed, escapes resolved); for dynamic words the source text. */
  value: string;
  /** True when the value depends on an expansion or substitution (`$X`, `$(...)`). */
  dynamic: boolean;
  /** True when an unquoted glob (`*`, `?`, `[`) or brace expression may expand to file names. */
  glob: boolean;
  /**
   * The value with every piece known only at run time replaced by `unknownText`: `r${X}m` is
   * `r<unknown>m`, `/usr/bin/r?` is `/usr/bin/r<unknown>`. Deny rules are matched against it.
   */
  pattern: string;
  /** True when the shell may split the word into several words, or drop it (unquoted expansions, globs, braces). */
  splits: boolean;
}

const unquotedGlob = /(?<!\\)[*?[]/;

/** Removes the backslash of `\x` outside quotes, as the shell does. */
function unescapeUnquoted(text: string): string {
  return text.replace(/\\(.)/gs, '$1');
}

/** Inside double quotes a backslash only escapes `$`, `` ` ``, `"`, `\` and newline. */
function unescapeDoubleQuoted(text: string): string {
  return text.replace(/\\([$`"\\\n])/g, (_match, character: string) => (character === '\n' ? '' : character));
}

/**
 * The pattern of an unquoted literal word: `*` and `?` stand for any text. A bracket or brace
 * expression can also turn the word into several words (`{rm,x}` is `rm x`), so such a word is
 * unknown as a whole.
 */
function unquotedPattern(text: string): string {
  if (expandsToWords(text)) return unknownText;
  let pattern = '';
  for (let index = 0; index < text.length; index++) {
    const character = text[index] as string;
    if (character === '\\') {
      pattern += text[index + 1] ?? '';
      index++;
    } else pattern += character === '*' || character === '?' ? unknownText : character;
  }
  return pattern;
}

/** An unquoted bracket expression (`[ab]`) or brace expansion (`{a,b}`, `{1..3}`): the word may become other or several words. */
function expandsToWords(unquoted: string): boolean {
  return /(?<!\\)\[[^\]]*\]/.test(unquoted) || /(?<!\\)\{[^{}]*(?:,|\.\.)[^{}]*\}/.test(unquoted);
}

const literal = (value: string): ShellWord => ({ value, dynamic: false, glob: false, pattern: value, splits: false });
const runtime = (text: string, splits: boolean): ShellWord => ({ value: text, dynamic: true, glob: false, pattern: unknownText, splits });

export function evaluateWord(node: SyntaxNode): ShellWord {
  switch (node.type) {
    case 'word': {
      const glob = unquotedGlob.test(node.text) || expandsToWords(node.text);
      return { value: unescapeUnquoted(node.text), dynamic: false, glob, pattern: unquotedPattern(node.text), splits: glob };
    }
    case 'number':
      return literal(node.text);
    case 'raw_string':
      return literal(node.text.slice(1, -1));
    case 'ansi_c_string': {
      const decoded = decodeAnsiCString(node.text);
      return decoded === undefined ? runtime(node.text, false) : literal(decoded);
    }
    case 'string':
      return evaluateDoubleQuoted(node);
    case 'concatenation':
      return evaluateConcatenation(node);
    case 'brace_expression':
      return { value: node.text, dynamic: false, glob: true, pattern: unknownText, splits: true };
    default:
      // simple_expansion, expansion, command_substitution, process_substitution, arithmetic_expansion,
      // translated_string: the value is only known at run time, and unquoted it may split.
      return runtime(node.text, true);
  }
}

function evaluateDoubleQuoted(node: SyntaxNode): ShellWord {
  let value = '';
  let pattern = '';
  let dynamic = false;
  for (const child of node.namedChildren) {
    if (!child) continue;
    if (child.type === 'string_content') {
      const text = unescapeDoubleQuoted(child.text);
      value += text;
      pattern += text;
    } else {
      dynamic = true;
      value += child.text;
      pattern += unknownText;
    }
  }
  return { value, dynamic, glob: false, pattern, splits: false };
}

function evaluateConcatenation(node: SyntaxNode): ShellWord {
  const children = node.namedChildren.filter((child): child is SyntaxNode => child !== null);
  const pieces = children.map(evaluateWord);
  // tree-sitter splits `{rm,x}` and `[ab]c` into several word nodes: look at the unquoted pieces together.
  const unquoted = children.filter((child) => child.type === 'word').map((child) => child.text).join('');
  const expands = expandsToWords(unquoted);
  return {
    value: pieces.map((piece) => piece.value).join(''),
    dynamic: pieces.some((piece) => piece.dynamic),
    glob: expands || pieces.some((piece) => piece.glob),
    pattern: expands ? unknownText : pieces.map((piece) => piece.pattern).join(''),
    splits: expands || pieces.some((piece) => piece.splits),
  };
}

/**
 * Bash joins `\<newline>` before it splits words, but tree-sitter-bash splits `-exe\<newline>c`
 * into two words. Remove the continuations first (outside single quotes) so the parser sees the
 * words bash will run. Returns the rewritten source and whether anything was joined.
 */
export function joinLineContinuations(source: string): { source: string; joined: boolean } {
  let output = '';
  let joined = false;
  let inSingle = false;
  let inDouble = false;
  for (let index = 0; index < source.length; index++) {
    const character = source[index];
    if (inSingle) {
      if (character === "'") inSingle = false;
      output += character;
      continue;
    }
    if (character === '\\') {
      const next = source[index + 1];
      if (next === '\n') {
        joined = true;
        index++;
        continue;
      }
      output += character + (next ?? '');
      index++;
      continue;
    }
    if (character === "'" && !inDouble) inSingle = true;
    else if (character === '"') inDouble = !inDouble;
    output += character;
  }
  return { source: output, joined };
}
