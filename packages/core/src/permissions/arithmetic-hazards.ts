import type { SyntaxNode } from './bash-parser.js';
import { subscriptReason } from './read-only-builtins.js';

const runTimeNodes = new Set(['simple_expansion', 'expansion', 'command_substitution', 'process_substitution', 'arithmetic_expansion']);
const arithmeticOperators = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge']);

export const arithmeticReason = 'bash evaluates this arithmetic on text known only at run time, and an array subscript in it (a[$(cmd)]) runs cmd';

function containsRunTimeText(node: SyntaxNode, includingItself = false): boolean {
  return node.descendantsOfType([...runTimeNodes]).some((descendant) => includingItself || descendant.id !== node.id);
}

/**
 * Why bash may evaluate text known only at run time as arithmetic at this node, or undefined.
 * Arithmetic evaluates array subscripts, and a subscript's `$(...)` runs: `echo $(( $(cat f) ))`
 * with `a[$(touch x)]` in f runs touch. So do `${a[...]}`, `${x:offset}`, `${!name}` and C-style
 * `for (( ))` headers.
 */
export function arithmeticHazard(node: SyntaxNode): string | undefined {
  switch (node.type) {
    case 'arithmetic_expansion':
      return containsRunTimeText(node) ? arithmeticReason : undefined;
    case 'c_style_for_statement': {
      // Only the (( )) header: the body's commands are judged on their own.
      const header = ['initializer', 'condition', 'update'].flatMap((field) => node.childrenForFieldName(field));
      return header.some((part) => containsRunTimeText(part, true)) ? arithmeticReason : undefined;
    }
    case 'expansion': {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the message quotes shell syntax
      if (/^\$\{!/.test(node.text)) return 'an indirect expansion ${!name} evaluates a name known only at run time (a[$(cmd)] runs cmd)';
      const subscript = node.namedChildren.find((child) => child?.type === 'subscript');
      if (subscript && containsRunTimeText(subscript)) return arithmeticReason;
      const substring = /^\$\{#?[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?:(?![-=+?])/.test(node.text);
      return substring && containsRunTimeText(node) ? arithmeticReason : undefined;
    }
    default:
      return undefined;
  }
}

const unquotedRunTime = (node: SyntaxNode) => runTimeNodes.has(node.type) || (node.type === 'concatenation' && node.namedChildren.some((child) => child !== null && runTimeNodes.has(child.type)));

/**
 * Why a `[[ ]]`, `[ ]` or `(( ))` test is not read-only, or undefined. `[[` evaluates the operands
 * of -eq/-lt/... as arithmetic; both forms evaluate `-v`/`-R` subscripts; `(( ))` is arithmetic.
 * For `[ ]`, which bash parses from words at run time, a run-time value must be quoted and sit in
 * an operand position of a two- or three-word test, or it could become an operator.
 */
export function testCommandHazard(node: SyntaxNode): string | undefined {
  const text = node.text;
  if (text.startsWith('((')) return 'an arithmetic command (( )) evaluates arithmetic';
  const doubleBracket = text.startsWith('[[');
  const operators = node.descendantsOfType('test_operator');
  if (operators.some((operator) => operator.text === '-v' || operator.text === '-R')) return subscriptReason;
  if (doubleBracket) {
    for (const operator of operators) {
      if (!arithmeticOperators.has(operator.text)) continue;
      const expression = operator.parent;
      const operands = [expression?.childForFieldName('left'), expression?.childForFieldName('right')];
      if (operands.some((operand) => !operand || !/^-?\d+$/.test(operand.text))) return `[[ ${operator.text} ]] evaluates its operands as arithmetic; only literal integers are read-only`;
    }
    return undefined;
  }
  const expression = node.namedChildren[0];
  if (!expression || !containsRunTimeText(node)) return undefined;
  const leaves = expression.type === 'unary_expression' || expression.type === 'binary_expression' ? expression.namedChildren : [expression];
  if (leaves.some((leaf) => leaf !== null && unquotedRunTime(leaf))) return 'an unquoted run-time value in [ ] could become an operator such as -v';
  const simple = (expression.type === 'unary_expression' || expression.type === 'binary_expression') && expression.namedChildren.every((child) => child !== null && !['unary_expression', 'binary_expression', 'parenthesized_expression'].includes(child.type));
  return simple || !['unary_expression', 'binary_expression', 'parenthesized_expression', 'negated_expression'].includes(expression.type) ? undefined : 'a run-time value in a [ ] test with several operators could become an operator such as -v';
}
