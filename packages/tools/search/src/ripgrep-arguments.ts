import { defaultIgnoredDirectories } from '@cairn/core/node';
import type { GrepPlan } from './grep-input.js';

/**
 * The argument vector. Everything the model controls goes after a flag that takes a value
 * (`-e PATTERN`, `--glob=`, `--type=`) or after `--`, so no model text is ever read as an option
 * (`--pre`, `--search-zip`, ...). `--no-config` ignores RIPGREP_CONFIG_PATH; `--no-require-git`
 * and the default-folder globs make ripgrep's ignore behaviour match `IgnoreRules`.
 *
 * `sortByPath` adds `--sort=path`, which makes rg walk on one thread (1.9x slower on a large tree):
 * grep leaves it off and sorts the output itself (see runRipgrep), unless the output is capped.
 */
export function ripgrepArguments(plan: GrepPlan, target: string, maxColumns: number, options: { sortByPath?: boolean } = {}): string[] {
  const args = [
    '--no-config', '--color=never', '--no-heading', '--with-filename', '--line-number', '--null', '--hidden',
    '--no-require-git', '--no-ignore-global', '--no-ignore-exclude', `--max-columns=${maxColumns}`, '--max-columns-preview',
  ];
  if (options.sortByPath) args.push('--sort=path');
  for (const folder of defaultIgnoredDirectories) args.push(`--glob=!${folder}/`);
  if (plan.ignoreCase) args.push('--ignore-case');
  if (plan.multiline) args.push('--multiline', '--multiline-dotall');
  if (plan.mode === 'files_with_matches') args.push('--files-with-matches');
  if (plan.mode === 'count') args.push('--count');
  if (plan.mode === 'content') {
    if (plan.after > 0) args.push(`--after-context=${plan.after}`);
    if (plan.before > 0) args.push(`--before-context=${plan.before}`);
  }
  if (plan.glob) args.push(`--glob=${plan.glob}`);
  if (plan.type) args.push(`--type=${plan.type}`);
  args.push('-e', plan.pattern, '--');
  if (target) args.push(target);
  return args;
}
