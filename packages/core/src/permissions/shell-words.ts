import type { SyntaxNode } from './bash-parser.js';

/** The value of one shell word as far as it can be known without running anything. */
export interface ShellWord {
  /** The literal value (quotes removed, escapes resolved); for dynamic words the source text. */
  value: string;
  /** True when the value depends on an expansion or substitution (`$X`, `$(...)`, `$'..'`). */
  dynamic: boolean;
  /** True when an unquoted glob (`*`, `?`, `[`) or brace expression may expand to file names. */
  glob: boolean;
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

export function evaluateWord(node: SyntaxNode): ShellWord {
  switch (node.type) {
    case 'word':
      return { value: unescapeUnquoted(node.text), dynamic: false, glob: unquotedGlob.test(node.text) };
    case 'number':
      return { value: node.text, dynamic: false, glob: false };
    case 'raw_string':
      return { value: node.text.slice(1, -1), dynamic: false, glob: false };
    case 'string': {
      let value = '';
      let dynamic = false;
      for (const child of node.namedChildren) {
        if (!child) continue;
        if (child.type === 'string_content') value += unescapeDoubleQuoted(child.text);
        else {
          dynamic = true;
          value += child.text;
        }
      }
      return { value, dynamic, glob: false };
    }
    case 'concatenation': {
      const pieces = node.namedChildren.filter((child): child is SyntaxNode => child !== null).map(evaluateWord);
      return {
        value: pieces.map((piece) => piece.value).join(''),
        dynamic: pieces.some((piece) => piece.dynamic),
        glob: pieces.some((piece) => piece.glob),
      };
    }
    case 'brace_expression':
      return { value: node.text, dynamic: false, glob: true };
    default:
      // simple_expansion, expansion, command_substitution, process_substitution, ansi_c_string,
      // arithmetic_expansion, translated_string: the value is only known at run time.
      return { value: node.text, dynamic: true, glob: false };
  }
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
