import { matchCommandRule, type RuleMatch } from './command-patterns.js';
import { commandGlobToRegExp, type ParsedPermissionRule } from './permission-rules.js';
import type { ShellCommandAnalysis, ShellCommandPart } from './shell-analysis.js';
import { unknownText } from './shell-words.js';

/** The texts an allow rule must match: the command with its assignments, exactly as it runs. */
export function allowCandidates(part: ShellCommandPart): string[] {
  return [[...part.assignments, ...part.argv].join(' ')];
}

/** The base name of a program pattern: after the last `/`, or anything when an unknown piece could hold one. */
function basenames(program: string): string[] {
  const slash = program.lastIndexOf('/');
  if (slash === -1) return [];
  const last = program.slice(slash + 1);
  const unknownAt = last.lastIndexOf(unknownText);
  return unknownAt === -1 ? [last] : [last, `${unknownText}${last.slice(unknownAt + 1)}`];
}

/**
 * Every reading of the part a deny or ask rule may match: the source text, the words with and
 * without assignments, and the program by its base name (`/bin/rm` is `rm`). Pieces known only at
 * run time are U+0000 in the readings. Wrappers and shells need no reading here: what they run is
 * a part of its own.
 */
export function denyCandidates(part: ShellCommandPart): string[] {
  const words = part.argvPatterns;
  const candidates = new Set<string>([part.text, [...part.assignments, ...words].join(' '), words.join(' ')]);
  for (const name of basenames(words[0] ?? '')) candidates.add([name, ...words.slice(1)].join(' '));
  candidates.delete('');
  return [...candidates];
}

export function shellRuleMatches(rule: ParsedPermissionRule, text: string): boolean {
  return rule.specifier === undefined || commandGlobToRegExp(rule.specifier).test(text);
}

export interface PartRuleMatch {
  rule: ParsedPermissionRule;
  /** `definite`: the command matches the rule; `possible`: a program known only at run time could. */
  match: Exclude<RuleMatch, 'none'>;
  /** The part that matched; undefined for the whole command line or an unparsable command. */
  part?: ShellCommandPart;
}

function ruleMatchFor(rule: ParsedPermissionRule, part: ShellCommandPart): RuleMatch {
  if (rule.specifier === undefined) return 'definite';
  let best: RuleMatch = 'none';
  for (const reading of denyCandidates(part)) {
    const match = matchCommandRule(rule.specifier, reading);
    if (match === 'definite') return match;
    if (match === 'possible') best = match;
  }
  return best;
}

/**
 * The rule matching any part, or the whole command line: used for deny and ask. A definite match
 * wins over a possible one. An unparsable command could be anything, so it possibly matches every rule.
 */
export function findAnyPartRule(rules: ParsedPermissionRule[], analysis: ShellCommandAnalysis): PartRuleMatch | undefined {
  const whole = analysis.command.trim();
  let possible: PartRuleMatch | undefined;
  for (const rule of rules) {
    if (shellRuleMatches(rule, whole)) return { rule, match: 'definite' };
    for (const part of analysis.parts) {
      const match = ruleMatchFor(rule, part);
      if (match === 'definite') return { rule, match, part };
      if (match === 'possible') possible ??= { rule, match, part };
    }
    if (analysis.unparsable) possible ??= { rule, match: 'possible' };
  }
  return possible;
}

/** The allow rule covering one part, if any. A program known only at run time is never covered by a specific rule. */
export function findAllowRule(rules: ParsedPermissionRule[], part: ShellCommandPart): ParsedPermissionRule | undefined {
  if (part.unknownProgram) return undefined;
  const texts = allowCandidates(part);
  return rules.find((rule) => rule.specifier !== undefined && texts.some((text) => shellRuleMatches(rule, text)));
}

/** ` (run through nice)` for a match inside a wrapper, a shell script or code, else nothing. */
export function runThrough(match: PartRuleMatch): string {
  return match.part?.via ? ` (run through ${match.part.via})` : '';
}

/** What the model reads when a program known only at run time could match a deny or ask rule. */
export function possibleMatchReason(match: PartRuleMatch, kind: 'deny' | 'ask'): string {
  const part = match.part;
  const synthetic = part !== undefined && part.argv.length === 0 && part.unknownProgram;
  const what = !part
    ? 'the command cannot be analysed, so'
    : synthetic
      ? `what ${part.via ?? 'the command'} runs cannot be determined from the command line (${part.reason ?? 'it is chosen at run time'}), so`
      : `\`${part.text.slice(0, 120)}\`${runThrough(match)} has ${part.unknownProgram ? `a program known only at run time (${part.reason ?? 'it comes from an expansion'})` : 'arguments known only at run time (expansions or globs)'}, so`;
  return (
    `${what} it could be a command the ${kind} rule ${match.rule.text} matches, and it is treated as one (it needs approval). ` +
    'Write the command so that the program and its arguments are visible: no $(...), variables, eval, aliases or inline code choosing the program'
  );
}

/**
 * The parts no allow rule covers and that are not read-only. A part run by a command that an
 * allow rule names exactly (no `*`) is covered by that rule: the user spelled out the whole command.
 */
export function allowCoverage(rules: ParsedPermissionRule[], analysis: ShellCommandAnalysis): { uncovered: string[]; lastRule?: ParsedPermissionRule } {
  const uncovered: string[] = [];
  const exactlyAllowed = new Set<number>();
  let lastRule: ParsedPermissionRule | undefined;
  for (const [index, part] of analysis.parts.entries()) {
    const rule = findAllowRule(rules, part);
    if (rule) {
      lastRule = rule;
      if (!rule.specifier?.includes('*')) exactlyAllowed.add(index);
    } else if (part.parent !== undefined && exactlyAllowed.has(part.parent)) exactlyAllowed.add(index);
    else if (!part.readOnly) uncovered.push(`${part.text} (${part.reason ?? 'not read-only'})`);
  }
  return lastRule ? { uncovered, lastRule } : { uncovered };
}
