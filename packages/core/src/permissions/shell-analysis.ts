import { loadBashParser, type SyntaxNode } from './bash-parser.js';
import { readOnlyVerdict } from './read-only-commands.js';
import { evaluateWord, joinLineContinuations, type ShellWord } from './shell-words.js';

/** One simple command of a compound command line. */
export interface ShellCommandPart {
  /** The command's source text (normalised: continuations joined). */
  text: string;
  /** Assignments and words as the shell would see them; dynamic words keep their source text. */
  argv: string[];
  /** `NAME=value` prefixes (`FOO=1 git status`). */
  assignments: string[];
  /** The program (argv[0]), undefined for a bare assignment or declaration. */
  program: string | undefined;
  /** True when some word depends on an expansion or substitution. */
  dynamic: boolean;
  /** The conservative read-only verdict for this part alone. */
  readOnly: boolean;
  /** Why `readOnly` is false. */
  reason?: string;
  /** True for parts found inside `sh -c '...'`. */
  nested: boolean;
}

export interface ShellCommandAnalysis {
  command: string;
  parts: ShellCommandPart[];
  /** The parser could not read the command, or it uses syntax we do not analyse (functions). */
  unparsable: boolean;
  unparsableReason?: string;
  /** `>`, `>>`, `&>` to anything but a file descriptor or /dev/null. */
  hasRedirectionToFile: boolean;
  redirectTargets: string[];
  /** `$()`, backticks or `<()` / `>()`. */
  hasSubstitution: boolean;
  /** `\<newline>` was joined before parsing. */
  hasLineContinuation: boolean;
  /** Every part is read-only, nothing writes through a redirection, and the command parsed. */
  readOnly: boolean;
}

const shells = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh']);
const harmlessTargets = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty', '-']);
const maximumNesting = 3;

interface Collector {
  parts: ShellCommandPart[];
  unparsableReason?: string;
  redirectTargets: string[];
  hasSubstitution: boolean;
}

/**
 * Splits a command line into its simple commands with tree-sitter-bash and judges each one.
 * Async only because the parser loads once; the analysis itself is synchronous.
 */
export async function analyzeShellCommand(command: string): Promise<ShellCommandAnalysis> {
  const parser = await loadBashParser();
  const collector: Collector = { parts: [], redirectTargets: [], hasSubstitution: false };
  const { joined } = analyzeInto(parser, command, collector, 0, false);
  const unparsable = collector.unparsableReason !== undefined;
  const hasRedirectionToFile = collector.redirectTargets.length > 0;
  const analysis: ShellCommandAnalysis = {
    command,
    parts: collector.parts,
    unparsable,
    hasRedirectionToFile,
    redirectTargets: collector.redirectTargets,
    hasSubstitution: collector.hasSubstitution,
    hasLineContinuation: joined,
    readOnly: !unparsable && !hasRedirectionToFile && collector.parts.length > 0 && collector.parts.every((part) => part.readOnly),
  };
  if (collector.unparsableReason !== undefined) analysis.unparsableReason = collector.unparsableReason;
  return analysis;
}

function analyzeInto(
  parser: Awaited<ReturnType<typeof loadBashParser>>,
  command: string,
  collector: Collector,
  depth: number,
  nested: boolean,
): { joined: boolean } {
  const { source, joined } = joinLineContinuations(command);
  if (joined && /<</.test(command)) collector.unparsableReason ??= 'line continuations together with a here-document';
  const tree = parser.parse(source);
  if (!tree) {
    collector.unparsableReason ??= 'the parser returned no tree';
    return { joined };
  }
  try {
    if (tree.rootNode.hasError) collector.unparsableReason ??= 'the command has a syntax error or syntax the parser does not understand';
    visit(tree.rootNode);
  } finally {
    tree.delete();
  }
  return { joined };

  function visit(node: SyntaxNode): void {
    if (node.isMissing || node.type === 'ERROR') collector.unparsableReason ??= `unparsable near "${node.text.slice(0, 40)}"`;
    switch (node.type) {
      case 'comment':
        return;
      case 'command':
        addCommand(node);
        break;
      case 'function_definition':
        collector.unparsableReason ??= 'function definitions are not analysed';
        break;
      case 'variable_assignment':
      case 'declaration_command':
      case 'unset_command':
        if (node.parent?.type !== 'command') addPart(node.text, [], [node.text], undefined, false, 'changes shell variables');
        break;
      case 'test_command':
        addPart(node.text, [], [], '[[', false, undefined);
        break;
      case 'command_substitution':
      case 'process_substitution':
        collector.hasSubstitution = true;
        break;
      case 'file_redirect':
        checkRedirect(node);
        break;
    }
    for (const child of node.namedChildren) if (child) visit(child);
  }

  function checkRedirect(node: SyntaxNode): void {
    const operator = node.children.find((child) => child && !child.isNamed)?.type ?? '';
    if (!operator.includes('>')) return;
    const destination = node.childForFieldName('destination') ?? node.namedChildren.at(-1) ?? null;
    if (!destination || destination.type === 'number' || destination.type === 'file_descriptor') return;
    const target = evaluateWord(destination);
    if (!target.dynamic && harmlessTargets.has(target.value)) return;
    collector.redirectTargets.push(target.value);
  }

  function addCommand(node: SyntaxNode): void {
    const words: ShellWord[] = [];
    const assignments: string[] = [];
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (child.type === 'variable_assignment') assignments.push(child.text);
      else if (child.type === 'command_name') {
        const inner = child.namedChildren[0];
        if (inner) words.push(evaluateWord(inner));
      } else if (child.type !== 'file_redirect' && child.type !== 'herestring_redirect' && child.type !== 'comment') {
        words.push(evaluateWord(child));
      }
    }
    const dynamic = words.some((word) => word.dynamic);
    let reason = readOnlyVerdict(words);
    if (assignments.length > 0) reason ??= 'environment assignments can change what a program runs (PAGER, LD_PRELOAD, GIT_*)';
    const program = words[0]?.value;
    addPart(node.text, words.map((word) => word.value), assignments, program, dynamic, reason);
    if (program && shells.has(program)) analyseShellScript(words);
  }

  function analyseShellScript(words: ShellWord[]): void {
    const flagIndex = words.findIndex((word, index) => index > 0 && /^-[a-z]*c[a-z]*$/.test(word.value));
    const script = flagIndex > 0 ? words[flagIndex + 1] : undefined;
    if (!script) return;
    if (script.dynamic || depth >= maximumNesting) {
      collector.unparsableReason ??= 'a shell runs a script that cannot be analysed';
      return;
    }
    analyzeInto(parser, script.value, collector, depth + 1, true);
  }

  function addPart(text: string, argv: string[], assignments: string[], program: string | undefined, dynamic: boolean, reason: string | undefined): void {
    const part: ShellCommandPart = { text, argv, assignments, program, dynamic, readOnly: reason === undefined, nested };
    if (reason !== undefined) part.reason = reason;
    collector.parts.push(part);
  }
}
