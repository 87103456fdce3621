import { type OptionSpec, type ParsedArguments, parseArguments } from './option-parser.js';

// git accepts unambiguous abbreviations of long options (`git grep --open-files-in-pa=cmd` is
// `--open-files-in-pager`), so only exact, listed spellings are understood.

const revisionAndDiff: OptionSpec = {
  flags: 'pusSzwbRaDWiEFPmcrtgq',
  valued: 'nUSGlLI',
  optionalAttached: 'MCB',
  numeric: true,
  long: [
    '--oneline', '--shortstat', '--numstat', '--name-only', '--name-status', '--patch', '--no-patch', '--raw', '--patch-with-raw', '--patch-with-stat',
    '--compact-summary', '--summary', '--graph', '--no-decorate', '--all', '--reverse', '--first-parent', '--merges', '--no-merges', '--follow',
    '--no-follow', '--abbrev-commit', '--no-abbrev-commit', '--no-abbrev', '--full-index', '--binary', '--no-relative', '--cached', '--staged', '--merge-base',
    '--no-index', '--minimal', '--patience', '--histogram', '--ignore-space-at-eol', '--ignore-cr-at-eol', '--ignore-blank-lines', '--ignore-all-space',
    '--ignore-space-change', '--text', '--no-renames', '--check', '--exit-code', '--quiet', '--no-ext-diff', '--no-textconv', '--full-history',
    '--simplify-by-decoration', '--simplify-merges', '--topo-order', '--date-order', '--author-date-order', '--source', '--log-size', '--no-notes', '--mailmap',
    '--use-mailmap', '--no-mailmap', '--no-use-mailmap', '--left-right', '--cherry-pick', '--cherry-mark', '--cherry', '--boundary', '--parents', '--children',
    '--do-walk', '--relative-date', '--no-color', '--no-color-moved', '--no-prefix', '--default-prefix', '--function-context', '--irreversible-delete',
    '--ita-invisible-in-index', '--ita-visible-in-index', '--pickaxe-regex', '--pickaxe-all', '--combined-all-paths', '--cc', '--root', '--show-pulls',
    '--remerge-diff', '--no-diff-merges', '--single-worktree', '--exclude-first-parent-only', '--no-expand-tabs', '--regexp-ignore-case', '--basic-regexp',
    '--extended-regexp', '--fixed-strings', '--perl-regexp', '--all-match', '--invert-grep', '--walk-reflogs', '--not', '--reflog', '--in-commit-order',
    '--cumulative', '--find-copies-harder', '--clear-decorations', '--rename-empty', '--no-rename-empty', '--no-standard-notes', '--standard-notes',
    '--no-min-parents', '--no-max-parents', '--no-walk',
  ],
  longValued: [
    '--since', '--after', '--until', '--before', '--author', '--committer', '--grep', '--grep-reflog', '--min-parents', '--max-parents', '--max-count', '--skip',
    '--max-age', '--min-age', '--format', '--date', '--stat-width', '--stat-name-width', '--stat-graph-width', '--stat-count', '--unified',
    '--inter-hunk-context', '--diff-filter', '--diff-algorithm', '--anchored', '--src-prefix', '--dst-prefix', '--line-prefix', '--word-diff-regex',
    '--color-moved-ws', '--ignore-matching-lines', '--output-indicator-new', '--output-indicator-old', '--output-indicator-context', '--exclude', '--glob',
    '--decorate-refs', '--decorate-refs-exclude', '--abbrev', '--diff-merges', '--encoding', '--find-object', '--rotate-to', '--skip-to',
  ],
  longOptional: [
    '--stat', '--decorate', '--branches', '--tags', '--remotes', '--relative', '--pretty', '--dirstat', '--dirstat-by-file', '--color', '--color-words', '--word-diff',
    '--color-moved', '--find-renames', '--find-copies', '--break-rewrites', '--ignore-submodules', '--submodule', '--notes', '--show-notes', '--expand-tabs',
    '--ancestry-path', '--show-linear-break',
  ],
};

const blame: OptionSpec = {
  flags: 'bltsfnepwc',
  valued: 'LS',
  optionalAttached: 'MC',
  long: ['--root', '--show-stats', '--reverse', '--first-parent', '--porcelain', '--line-porcelain', '--incremental', '--show-name', '--show-number', '--show-email', '--minimal', '--color-lines', '--color-by-age', '--progress', '--no-progress', '--score-debug'],
  longValued: ['--abbrev', '--date', '--contents', '--ignore-rev', '--ignore-revs-file', '--encoding', '--since'],
};

const listing = (listOption: string[], what: string) => (parsed: ParsedArguments) =>
  parsed.operands.length === 0 || parsed.options.some((option) => listOption.includes(option.name)) ? undefined : `git ${what} with a name creates, renames or deletes it (only the listing forms are read-only)`;

const branchSpec: OptionSpec = {
  flags: 'arvli',
  long: ['--list', '--show-current', '--all', '--remotes', '--no-color', '--no-column', '--no-abbrev', '--ignore-case', '--omit-empty', '--verbose'],
  longValued: ['--points-at', '--sort', '--format', '--abbrev'],
  longOptional: ['--color', '--contains', '--no-contains', '--merged', '--no-merged', '--column'],
};
const tagSpec: OptionSpec = {
  flags: 'li',
  optionalAttached: 'n',
  long: ['--list', '--ignore-case', '--omit-empty', '--no-column'],
  longValued: ['--points-at', '--sort', '--format'],
  longOptional: ['--contains', '--no-contains', '--merged', '--no-merged', '--column', '--color'],
};

interface GitSubcommand {
  spec: OptionSpec;
  refused?: Record<string, string>;
  check?: (parsed: ParsedArguments) => string | undefined;
}

const diffRefusals = { '--output': 'writes a file', '--ext-diff': 'runs an external diff program', '--textconv': 'runs textconv programs', '--show-signature': 'runs gpg', '-O': 'reads an order file' };

const subcommands: Record<string, GitSubcommand> = {
  status: {
    spec: {
      flags: 'sbvz',
      optionalAttached: 'u',
      long: ['--short', '--branch', '--show-stash', '--long', '--verbose', '--no-column', '--ahead-behind', '--no-ahead-behind', '--renames', '--no-renames', '--null'],
      longOptional: ['--porcelain', '--untracked-files', '--ignore-submodules', '--ignored', '--column', '--find-renames'],
    },
  },
  log: { spec: revisionAndDiff, refused: diffRefusals },
  show: { spec: revisionAndDiff, refused: diffRefusals },
  diff: { spec: revisionAndDiff, refused: diffRefusals },
  'rev-list': { spec: { ...revisionAndDiff, long: [...(revisionAndDiff.long ?? []), '--count', '--objects', '--no-object-names', '--header', '--timestamp', '--bisect'] }, refused: diffRefusals },
  blame: { spec: blame },
  shortlog: { spec: { ...revisionAndDiff, flags: 'nsec', optionalAttached: 'w', long: [...(revisionAndDiff.long ?? []), '--numbered', '--summary', '--email', '--committer'], longValued: [...(revisionAndDiff.longValued ?? []), '--group'] } },
  describe: {
    spec: { long: ['--all', '--tags', '--contains', '--exact-match', '--debug', '--long', '--always', '--first-parent'], longValued: ['--abbrev', '--candidates', '--match', '--exclude'], longOptional: ['--dirty', '--broken'] },
  },
  'rev-parse': {
    spec: {
      flags: 'q',
      long: [
        '--verify', '--quiet', '--sq', '--symbolic', '--symbolic-full-name', '--all', '--show-toplevel', '--show-prefix', '--show-cdup', '--git-dir',
        '--git-common-dir', '--absolute-git-dir', '--is-inside-work-tree', '--is-inside-git-dir', '--is-bare-repository', '--is-shallow-repository',
        '--show-superproject-working-tree', '--shared-index-path', '--local-env-vars', '--not', '--revs-only', '--no-revs', '--flags', '--no-flags',
        '--sq-quote', '--keep-dashdash', '--end-of-options', '--show-object-format',
      ],
      longValued: ['--resolve-git-dir', '--git-path', '--default', '--prefix', '--since', '--until', '--glob', '--exclude', '--disambiguate', '--path-format'],
      longOptional: ['--abbrev-ref', '--short', '--branches', '--tags', '--remotes'],
    },
  },
  'ls-files': {
    spec: {
      flags: 'cdmoiskuztvf',
      valued: 'xX',
      long: ['--cached', '--deleted', '--modified', '--others', '--ignored', '--stage', '--unmerged', '--killed', '--directory', '--no-empty-directory', '--eol', '--full-name', '--recurse-submodules', '--error-unmatch', '--exclude-standard', '--deduplicate', '--sparse', '--debug', '--resolve-undo'],
      longValued: ['--with-tree', '--exclude', '--exclude-from', '--exclude-per-directory', '--format'],
      longOptional: ['--abbrev'],
    },
  },
  'ls-tree': { spec: { flags: 'drtlz', long: ['--long', '--name-only', '--name-status', '--object-only', '--full-name', '--full-tree'], longValued: ['--format'], longOptional: ['--abbrev'] } },
  'cat-file': {
    spec: { flags: 'tsepZ', long: ['--batch-all-objects', '--buffer', '--follow-symlinks', '--unordered', '--allow-unknown-type', '--mailmap', '--use-mailmap'], longOptional: ['--batch', '--batch-check', '--batch-command'] },
    refused: { '--textconv': 'runs textconv programs', '--filters': 'runs filter programs' },
  },
  grep: {
    spec: {
      flags: 'aiIwvhHEGPFnlLzocpWqr',
      valued: 'efABCm',
      numeric: true,
      long: [
        '--text', '--ignore-case', '--word-regexp', '--invert-match', '--full-name', '--extended-regexp', '--basic-regexp', '--perl-regexp', '--fixed-strings',
        '--line-number', '--column', '--files-with-matches', '--name-only', '--files-without-match', '--null', '--only-matching', '--count', '--no-color',
        '--break', '--heading', '--show-function', '--function-context', '--quiet', '--all-match', '--and', '--or', '--not', '--cached', '--untracked',
        '--no-index', '--no-exclude-standard', '--exclude-standard', '--recurse-submodules', '--recursive', '--no-recursive', '--no-textconv',
      ],
      longValued: ['--max-depth', '--max-count', '--threads', '--after-context', '--before-context', '--context'],
      longOptional: ['--color'],
    },
    refused: { '-O': 'opens the matches in a program', '--open-files-in-pager': 'opens the matches in a program', '--textconv': 'runs textconv programs' },
  },
  branch: { spec: branchSpec, check: listing(['-l', '--list'], 'branch') },
  tag: { spec: tagSpec, check: listing(['-l', '--list'], 'tag') },
  'show-ref': { spec: { flags: 'sdq', long: ['--hash', '--heads', '--tags', '--verify', '--dereference', '--quiet', '--head', '--exists', '--branches'], longOptional: ['--abbrev'] } },
  'merge-base': { spec: { flags: 'a', long: ['--all', '--octopus', '--independent', '--is-ancestor', '--fork-point'] } },
  'for-each-ref': { spec: { long: ['--shell', '--perl', '--python', '--tcl', '--ignore-case', '--omit-empty', '--include-root-refs'], longValued: ['--count', '--format', '--sort', '--points-at', '--exclude'], longOptional: ['--contains', '--no-contains', '--merged', '--no-merged', '--color'] } },
  'count-objects': { spec: { flags: 'vH', long: ['--verbose', '--human-readable'] } },
};

// Subcommands whose first operand picks a read-only action.
const actionSubcommands: Record<string, Record<string, OptionSpec>> = {
  remote: { '': { flags: 'v', long: ['--verbose'] }, 'get-url': { long: ['--push', '--all'] } },
  stash: { list: revisionAndDiff, show: revisionAndDiff },
  worktree: { list: { flags: 'v', long: ['--porcelain', '--verbose'], optionalAttached: 'z' } },
  reflog: { '': revisionAndDiff, show: revisionAndDiff },
};

function verdictFor(name: string, spec: OptionSpec, args: string[], refused: Record<string, string> = {}, check?: GitSubcommand['check']): string | undefined {
  const outcome = parseArguments(args, spec);
  if ('unknown' in outcome) {
    const option = outcome.unknown.split('=')[0] as string;
    const letter = /^-[^-]/.test(option) ? Object.keys(refused).find((key) => key.length === 2 && option.includes(key[1] as string)) : undefined;
    const abbreviated = option.length > 3 ? Object.keys(refused).find((key) => key.startsWith('--') && key !== option && key.startsWith(option)) : undefined;
    const reason = refused[option] ?? (letter ? refused[letter] : undefined) ?? (abbreviated ? refused[abbreviated] : undefined);
    if (abbreviated && reason && !refused[option]) return `git ${name} ${option} abbreviates ${abbreviated}, which ${reason}`;
    return reason ? `git ${name} ${letter ?? option} ${reason}` : `git ${name} option ${outcome.unknown} is not known to be read-only (git accepts abbreviations, so only exact, listed options are)`;
  }
  return check?.(outcome.parsed);
}

// `git config` reads only in these forms. Options must come first: git stops at the first operand,
// so `git config core.fsmonitor X --get` sets core.fsmonitor (and uses --get as a value pattern).
const configScopes = new Set(['--global', '--system', '--local', '--worktree', '--includes', '--no-includes', '--show-origin', '--show-scope', '--name-only', '-z', '--null', '--type=bool', '--type=int', '--type=path', '--bool', '--int', '--path']);
const configGets: Record<string, number> = { '--get': 2, '--get-all': 2, '--get-regexp': 2, '--list': 0, '-l': 0 };

function configVerdict(args: string[]): string | undefined {
  const writes = 'git config outside the --get / --list forms (options first) can change configuration';
  if (args[0] === 'get' || args[0] === 'list') {
    const rest = args.slice(1);
    const operands = rest.filter((arg) => !arg.startsWith('-'));
    const optionsOk = rest.every((arg) => !arg.startsWith('-') || configScopes.has(arg) || ['--all', '--regexp', '--show-names'].includes(arg));
    return optionsOk && operands.length <= (args[0] === 'get' ? 1 : 0) ? undefined : writes;
  }
  let action: string | undefined;
  let index = 0;
  for (; index < args.length && (args[index] as string).startsWith('-'); index++) {
    const arg = args[index] as string;
    if (configGets[arg] !== undefined && action === undefined) action = arg;
    else if (!configScopes.has(arg)) return writes;
  }
  if (action === undefined) return writes;
  return args.length - index <= (configGets[action] as number) ? undefined : writes;
}

const globalOptions = new Set(['--no-pager', '-P', '--paginate', '-p', '--no-optional-locks', '--literal-pathspecs', '--glob-pathspecs', '--noglob-pathspecs', '--icase-pathspecs', '--no-replace-objects']);
const refusedGlobalOptions = ['-c', '--config-env', '--exec-path', '--git-dir', '--work-tree', '--namespace', '--super-prefix', '--list-cmds', '--bare'];

export function gitVerdict(args: string[]): string | undefined {
  let index = 0;
  while (index < args.length && (args[index] as string).startsWith('-')) {
    const arg = args[index] as string;
    const name = arg.split('=')[0] as string;
    if (refusedGlobalOptions.includes(name)) return `git ${name} can point git at programs or configuration`;
    if (arg === '-C') index++;
    else if (!globalOptions.has(arg)) return `git option ${arg} is not known to be read-only`;
    index++;
  }
  const subcommand = args[index];
  if (subcommand === undefined) return 'git without a subcommand';
  const rest = args.slice(index + 1);
  if (subcommand === 'config') return configVerdict(rest);
  const entry = subcommands[subcommand];
  if (entry) return verdictFor(subcommand, entry.spec, rest, entry.refused, entry.check);
  const actions = actionSubcommands[subcommand];
  if (actions) {
    const action = rest[0] !== undefined && !rest[0].startsWith('-') ? rest[0] : '';
    const spec = actions[action];
    if (!spec) return `git ${subcommand}${action ? ` ${action}` : ''} is not a read-only form`;
    // Without an action word, an operand after the options would be the action (`git remote -v add x url`).
    const noOperands = (parsed: ParsedArguments) => (parsed.operands.length === 0 ? undefined : `git ${subcommand} with these operands is not a read-only form`);
    return verdictFor(`${subcommand}${action ? ` ${action}` : ''}`, spec, action ? rest.slice(1) : rest, {}, action ? undefined : noOperands);
  }
  return `git ${subcommand} is not a read-only subcommand`;
}
