import { arithmeticHazard, testCommandHazard } from './arithmetic-hazards.js';
import { loadBashParser, type SyntaxNode } from './bash-parser.js';
import { type InnerCommand, innerCommands } from './command-runners.js';
import { variableInnerCommands } from './program-variables.js';
import { readOnlyVerdict } from './read-only-commands.js';
import { type StdinSource, stdinOf } from './shell-stdin.js';
import { evaluateWord, joinLineContinuations, type ShellWord, unknownText } from './shell-words.js';

/** One simple command of a compound command line, or a command another one runs. */
export interface ShellCommandPart {
  /** The command's source text (normalised: continuations joined); for inner commands, their words. */
  text: string;
  /** Assignments and words as the shell would see them; dynamic words keep their source text. */
  argv: string[];
  /**
   * argv with every piece known only at run time replaced by U+0000 (`r${X}m` is `r\u0000m`, a
   * program chosen by code or configuration is a single U+0000). Deny and ask rules match this.
   */
  argvPatterns: string[];
  /** `NAME=value` prefixes (`FOO=1 git status`). */
  assignments: string[];
  /** The program (argv[0]), undefined for a bare assignment or declaration. */
  program: string | undefined;
  /** True when some word depends on an expansion or substitution. */
  dynamic: boolean;
  /** True when the program cannot be determined from the command line (run-time text, code, configuration). */
  unknownProgram: boolean;
  /** The conservative read-only verdict for this part alone. */
  readOnly: boolean;
  /** Why `readOnly` is false. */
  reason?: string;
  /** True for parts found inside `sh -c '...'` or run by another command. */
  nested: boolean;
  /** What runs this part (`nice`, `sh`, `xargs`, `git alias`, ...); absent for parts written in the command line. */
  via?: string;
  /** Index in `parts` of the part that runs this one. */
  parent?: number;
}

export interface ShellCommandAnalysis {
  command: string;
  parts: ShellCommandPart[];
  /** The parser could not read the command, or it uses syntax or scripts we do not analyse. */
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

const harmlessTargets = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty', '-']);
// Scripts inside scripts inside wrappers: beyond this the analysis gives up (and fails closed).
const maximumDepth = 8;

interface Collector {
  parts: ShellCommandPart[];
  unparsableReason?: string;
  redirectTargets: string[];
  hasSubstitution: boolean;
}

interface Scope {
  depth: number;
  nested: boolean;
  via?: string;
  parent?: number;
  /** What stdin holds for commands of this script that do not redirect it themselves. */
  stdin: StdinSource;
}

type Parser = Awaited<ReturnType<typeof loadBashParser>>;

/**
 * Splits a command line into its simple commands with tree-sitter-bash and judges each one; the
 * commands they run (wrappers, shells, code runners) become parts of their own.
 * Async only because the parser loads once; the analysis itself is synchronous.
 */
export async function analyzeShellCommand(command: string): Promise<ShellCommandAnalysis> {
  const parser = await loadBashParser();
  const collector: Collector = { parts: [], redirectTargets: [], hasSubstitution: false };
  const { joined } = analyzeScript(parser, command, collector, { depth: 0, nested: false, stdin: { kind: 'none' } });
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

function analyzeScript(parser: Parser, command: string, collector: Collector, scope: Scope): { joined: boolean } {
  const { source, joined } = joinLineContinuations(command);
  if (joined && /<</.test(command)) collector.unparsableReason ??= 'line continuations together with a here-document';
  const tree = parser.parse(source);
  if (!tree) {
    collector.unparsableReason ??= 'the parser returned no tree';
    return { joined };
  }
  const partOfNode = new Map<number, number>();
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
        if (node.parent?.type !== 'command') {
          const index = addPart(node.text, [], [node.text], undefined, false, 'changes shell variables', partOfNode, node);
          addVariableRunners(node, index);
        }
        break;
      case 'declaration_command':
      case 'unset_command':
        addPart(node.text, [], [node.text], undefined, false, 'changes shell variables', partOfNode, node);
        break;
      case 'test_command':
        addPart(node.text, [], [], node.text.startsWith('[[') ? '[[' : node.text.startsWith('((') ? '((' : '[', false, testCommandHazard(node), partOfNode, node);
        break;
      case 'command_substitution':
      case 'process_substitution':
        collector.hasSubstitution = true;
        break;
      case 'file_redirect':
        checkRedirect(node);
        break;
    }
    const hazard = arithmeticHazard(node);
    if (hazard) markHazard(node, hazard);
    for (const child of node.namedChildren) if (child) visit(child);
  }

  /** Marks the part the node belongs to as not read-only (or adds one, for a `for` header). */
  function markHazard(node: SyntaxNode, reason: string): void {
    for (let ancestor: SyntaxNode | null = node; ancestor; ancestor = ancestor.parent) {
      const index = partOfNode.get(ancestor.id);
      if (index === undefined) continue;
      const part = collector.parts[index] as ShellCommandPart;
      part.readOnly = false;
      part.reason ??= reason;
      return;
    }
    addPart(node.text, [], [], undefined, false, reason, partOfNode, node);
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
    const assignments: SyntaxNode[] = [];
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (child.type === 'variable_assignment') assignments.push(child);
      else if (child.type === 'command_name') {
        const inner = child.namedChildren[0];
        if (inner) words.push(evaluateWord(inner));
      } else if (child.type !== 'file_redirect' && child.type !== 'herestring_redirect' && child.type !== 'comment') {
        words.push(evaluateWord(child));
      }
    }
    let reason = readOnlyVerdict(words);
    if (assignments.length > 0) reason ??= 'environment assignments can change what a program runs (PAGER, LD_PRELOAD, GIT_*)';
    const index = addWordsPart(node.text, words, assignments.map((assignment) => assignment.text), reason, scope, partOfNode, node);
    for (const assignment of assignments) addVariableRunners(assignment, index);
    const stdin = stdinOf(node, scope.stdin);
    for (const inner of innerCommands(words)) addInner(inner, index, stdin, scope.depth + 1);
  }

  function addVariableRunners(assignment: SyntaxNode, parent: number): void {
    const name = assignment.childForFieldName('name')?.text ?? '';
    const value = assignment.childForFieldName('value');
    for (const inner of variableInnerCommands(name, value ? evaluateWord(value) : undefined, `${name}=`)) addInner(inner, parent, scope.stdin, scope.depth + 1);
  }

  /** Adds what a part runs: more words, a script, stdin, or an unknown program. */
  function addInner(inner: InnerCommand, parent: number, stdin: StdinSource, depth: number): void {
    const innerScope: Scope = { depth, nested: true, via: inner.via, parent, stdin };
    if (depth > maximumDepth) {
      collector.unparsableReason ??= 'commands nest too deeply to analyse';
      addUnknown(innerScope, 'commands nest too deeply to analyse');
      return;
    }
    switch (inner.kind) {
      case 'argv': {
        const words = inner.words;
        const index = addWordsPart(words.map((word) => word.value).join(' '), words, [], readOnlyVerdict(words), innerScope);
        for (const next of innerCommands(words)) addInner(next, index, stdin, depth + 1);
        return;
      }
      case 'script':
        analyzeScript(parser, inner.word.value, collector, { ...innerScope, stdin: { kind: 'none' } });
        return;
      case 'stdin':
        if (stdin.kind === 'none') return;
        if (stdin.kind === 'script' && inner.language === 'shell') {
          analyzeScript(parser, stdin.word.value, collector, { ...innerScope, stdin: { kind: 'none' } });
          return;
        }
        collector.unparsableReason ??= `${inner.via} runs commands it reads from its input, which are known only at run time`;
        addUnknown(innerScope, `${inner.via} reads the commands it runs from its input`);
        return;
      case 'unknown':
        if (inner.unanalysableScript) collector.unparsableReason ??= `${inner.via} runs a script that cannot be analysed`;
        addUnknown(innerScope, inner.reason);
        return;
    }
  }

  function addUnknown(innerScope: Scope, reason: string): void {
    const part: ShellCommandPart = { text: `<${innerScope.via ?? 'command'}: unknown program>`, argv: [], argvPatterns: [unknownText], assignments: [], program: undefined, dynamic: true, unknownProgram: true, readOnly: false, reason, nested: true };
    if (innerScope.via !== undefined) part.via = innerScope.via;
    if (innerScope.parent !== undefined) part.parent = innerScope.parent;
    collector.parts.push(part);
  }

  function addWordsPart(text: string, words: ShellWord[], assignments: string[], reason: string | undefined, partScope: Scope, nodes?: Map<number, number>, node?: SyntaxNode): number {
    const index = addPart(text, words.map((word) => word.value), assignments, words[0]?.value, words.some((word) => word.dynamic), reason, nodes, node, partScope);
    const part = collector.parts[index] as ShellCommandPart;
    part.argvPatterns = words.map((word) => word.pattern);
    part.unknownProgram = words[0]?.pattern.includes(unknownText) ?? false;
    return index;
  }

  function addPart(text: string, argv: string[], assignments: string[], program: string | undefined, dynamic: boolean, reason: string | undefined, nodes?: Map<number, number>, node?: SyntaxNode, partScope: Scope = scope): number {
    const part: ShellCommandPart = { text, argv, argvPatterns: argv, assignments, program, dynamic, unknownProgram: false, readOnly: reason === undefined, nested: partScope.nested };
    if (reason !== undefined) part.reason = reason;
    if (partScope.via !== undefined) part.via = partScope.via;
    if (partScope.parent !== undefined) part.parent = partScope.parent;
    collector.parts.push(part);
    const index = collector.parts.length - 1;
    if (nodes && node) nodes.set(node.id, index);
    return index;
  }
}
