import type { SyntaxNode } from './bash-parser.js';
import { namesStdin } from './shell-invocation.js';
import { evaluateWord, type ShellWord } from './shell-words.js';

/** What a command's standard input holds, as far as the command line shows it. */
export type StdinSource =
  /** Nothing that runs: the shell tool's own stdin is /dev/null, or a file (files are not judged). */
  | { kind: 'none' }
  /** A here-string or a quoted here-document: text we can read. */
  | { kind: 'script'; word: ShellWord }
  /** A pipe, an expanding here-document, a process substitution: known only at run time. */
  | { kind: 'unknown' };

const inputOperators = new Set(['<', '<&', '<>', '<<<', '<<', '<<-']);

const operatorOf = (node: SyntaxNode) => node.children.find((child) => child && !child.isNamed)?.type ?? '';

/** The stdin of `command`: its own redirections first, then pipes and redirections around it, then `inherited`. */
export function stdinOf(command: SyntaxNode, inherited: StdinSource): StdinSource {
  const herestring = command.namedChildren.find((child) => child?.type === 'herestring_redirect');
  if (herestring) return fromWord(herestring.namedChildren[0] ?? null);
  const parent = command.parent;
  if (parent?.type === 'redirected_statement') {
    for (const redirect of parent.namedChildren) {
      if (!redirect || redirect.id === command.id) continue;
      if (redirect.type === 'heredoc_redirect') return fromHeredoc(redirect);
      if (redirect.type === 'herestring_redirect') return fromWord(redirect.namedChildren[0] ?? null);
      if (redirect.type === 'file_redirect' && inputOperators.has(operatorOf(redirect))) return fromFile(redirect.childForFieldName('destination'));
    }
  }
  for (let node: SyntaxNode = command, ancestor = command.parent; ancestor; node = ancestor, ancestor = ancestor.parent) {
    // Any element of a pipeline but the first reads the previous one's output.
    if (ancestor.type === 'pipeline' && ancestor.namedChildren[0]?.id !== node.id) return { kind: 'unknown' };
    if (ancestor.type === 'redirected_statement' && ancestor.id !== parent?.id && ancestor.namedChildren.some((child) => child !== null && child.id !== node.id && isInputRedirect(child))) {
      return { kind: 'unknown' };
    }
  }
  return inherited;
}

function isInputRedirect(node: SyntaxNode): boolean {
  return node.type === 'heredoc_redirect' || node.type === 'herestring_redirect' || (node.type === 'file_redirect' && inputOperators.has(operatorOf(node)));
}

function fromWord(node: SyntaxNode | null): StdinSource {
  if (!node) return { kind: 'none' };
  const word = evaluateWord(node);
  return word.dynamic ? { kind: 'unknown' } : { kind: 'script', word };
}

/** A quoted delimiter (`<<'EOF'`) keeps the body literal; otherwise `$`, backticks and `\` expand first. */
function fromHeredoc(redirect: SyntaxNode): StdinSource {
  const start = redirect.namedChildren.find((child) => child?.type === 'heredoc_start');
  const body = redirect.namedChildren.find((child) => child?.type === 'heredoc_body');
  const text = body?.text ?? '';
  const quoted = /['"\\]/.test(start?.text ?? '');
  if (!quoted && /[$`\\]/.test(text)) return { kind: 'unknown' };
  // `<<-` strips leading tabs; the text stays the same commands either way.
  return { kind: 'script', word: { value: text, dynamic: false, glob: false, pattern: text, splits: false } };
}

function fromFile(destination: SyntaxNode | null): StdinSource {
  if (!destination) return { kind: 'none' };
  const word = evaluateWord(destination);
  if (word.dynamic || namesStdin(word.value)) return { kind: 'unknown' };
  return { kind: 'none' };
}
