import type { ShellCommandAnalysis, ShellCommandPart } from './shell-analysis.js';
import { commandGlobToRegExp, type ParsedPermissionRule } from './permission-rules.js';

// Programs that run their arguments as another command. Deny rules look through them, so
// `deny: shell(rm*)` also stops `sudo rm`, `xargs rm`, `env X=1 rm` and `timeout 5 rm`.
const wrappers = new Set(['sudo', 'env', 'nice', 'nohup', 'time', 'timeout', 'command', 'exec', 'builtin', 'xargs', 'stdbuf', 'doas']);

function unwrap(argv: string[]): string[] {
  let rest = argv;
  while (rest.length > 0 && wrappers.has(rest[0] ?? '')) {
    const wrapper = rest[0];
    rest = rest.slice(1);
    while (rest.length > 0 && ((rest[0] ?? '').startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(rest[0] ?? ''))) rest = rest.slice(1);
    if (wrapper === 'timeout' && rest.length > 0) rest = rest.slice(1);
  }
  return rest;
}

const basename = (program: string) => program.slice(program.lastIndexOf('/') + 1);

/** The texts an allow rule must match: the command with its assignments, exactly as it runs. */
export function allowCandidates(part: ShellCommandPart): string[] {
  return [[...part.assignments, ...part.argv].join(' ')];
}

/** Every reading of the part a deny or ask rule may match: raw, without assignments, unwrapped, by basename. */
export function denyCandidates(part: ShellCommandPart): string[] {
  const candidates = new Set<string>([part.text, [...part.assignments, ...part.argv].join(' '), part.argv.join(' ')]);
  const unwrapped = unwrap(part.argv);
  candidates.add(unwrapped.join(' '));
  for (const argv of [part.argv, unwrapped]) {
    if (argv[0]?.includes('/')) candidates.add([basename(argv[0]), ...argv.slice(1)].join(' '));
  }
  candidates.delete('');
  return [...candidates];
}

export function shellRuleMatches(rule: ParsedPermissionRule, text: string): boolean {
  return rule.specifier === undefined || commandGlobToRegExp(rule.specifier).test(text);
}

/** The first rule matching any part (or the whole command line): used for deny and ask. */
export function findAnyPartRule(rules: ParsedPermissionRule[], analysis: ShellCommandAnalysis): ParsedPermissionRule | undefined {
  const texts = [analysis.command.trim(), ...analysis.parts.flatMap(denyCandidates)];
  return rules.find((rule) => texts.some((text) => shellRuleMatches(rule, text)));
}

/** The allow rule covering one part, if any. */
export function findAllowRule(rules: ParsedPermissionRule[], part: ShellCommandPart): ParsedPermissionRule | undefined {
  const texts = allowCandidates(part);
  return rules.find((rule) => rule.specifier !== undefined && texts.some((text) => shellRuleMatches(rule, text)));
}
