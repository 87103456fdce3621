import { type InnerCommand, joinedScript, literalWord, scriptFrom, unknownCommand } from './inner-command.js';
import type { ShellWord } from './shell-words.js';

// git's own commands (`git --list-cmds=main`). Aliases cannot shadow them; any other word after
// `git` may be an alias from configuration (`!rm -rf x`) or an external git-* program.
const gitCommands = new Set(
  (
    'add am annotate apply archive bisect blame branch bugreport bundle cat-file check-attr check-ignore check-mailmap check-ref-format checkout ' +
    'checkout-index cherry cherry-pick clean clone column commit commit-graph commit-tree config count-objects credential credential-cache ' +
    'credential-store daemon describe diagnose diff diff-files diff-index diff-tree difftool fast-export fast-import fetch fetch-pack filter-branch ' +
    'fmt-merge-msg for-each-ref for-each-repo format-patch fsck fsck-objects gc get-tar-commit-id grep hash-object help hook http-backend http-fetch ' +
    'http-push imap-send index-pack init init-db instaweb interpret-trailers log ls-files ls-remote ls-tree mailinfo mailsplit maintenance merge ' +
    'merge-base merge-file merge-index merge-octopus merge-one-file merge-ours merge-recursive merge-resolve merge-subtree merge-tree mergetool mktag ' +
    'mktree multi-pack-index mv name-rev notes pack-objects pack-redundant pack-refs patch-id prune prune-packed pull push quiltimport range-diff ' +
    'read-tree rebase receive-pack reflog remote repack replace request-pull rerere reset restore rev-list rev-parse revert rm send-pack shell ' +
    'shortlog show show-branch show-index show-ref sparse-checkout stage stash status stripspace submodule subtree switch symbolic-ref tag ' +
    'unpack-file unpack-objects update-index update-ref update-server-info upload-archive upload-pack var verify-commit verify-pack verify-tag ' +
    'version whatchanged worktree write-tree lfs'
  ).split(' '),
);

// `git -c key=value` keys that only change output or identity. Every other key may name a program
// (core.pager, core.fsmonitor, diff.external, filter.*.clean, credential.helper, include.path, ...).
const harmlessConfigKeys = [/^user\.(?:name|email)$/, /^color\./, /^core\.(?:quotepath|autocrlf|safecrlf|ignorecase|abbrev)$/, /^log\.(?:date|decorate|abbrevcommit)$/, /^diff\.(?:renames|noprefix|mnemonicprefix|context)$/, /^init\.defaultbranch$/, /^advice\./, /^column\./, /^status\.(?:short|branch)$/, /^safe\.directory$/, /^i18n\./, /^gc\.auto$/, /^commit\.gpgsign$/, /^pull\.rebase$/, /^push\.default$/];

const globalValued = new Set(['-C', '--git-dir', '--work-tree', '--namespace', '--super-prefix']);
// Options of any subcommand whose value is a command git runs (fetch, clone, push, archive, ls-remote, send-email).
const commandOptions = /^--(?:upload-pack|receive-pack|exec|to-cmd|cc-cmd|header-cmd|smtp-server)(?:=|$)/;

/** What a `git ...` command runs besides git: `-c alias.x=!cmd`, unknown aliases, `rebase --exec`, `bisect run`, ... */
export function gitInner(words: ShellWord[], depth = 0): InnerCommand[] {
  const inner: InnerCommand[] = [];
  const aliases = new Map<string, string>();
  let index = 0;
  for (; index < words.length && (words[index] as ShellWord).value.startsWith('-'); index++) {
    const word = words[index] as ShellWord;
    const value = word.value;
    const name = value.split('=')[0] as string;
    if (name === '-c') {
      const setting = words[index + 1];
      index++;
      if (!setting || setting.dynamic) return [unknownCommand('git -c', 'git -c sets configuration known only at run time')];
      const [key = '', ...rest] = setting.value.split('=');
      const lowerKey = key.toLowerCase();
      if (lowerKey.startsWith('alias.')) aliases.set(key.slice('alias.'.length), rest.join('='));
      else if (!harmlessConfigKeys.some((pattern) => pattern.test(lowerKey))) inner.push(unknownCommand('git -c', `git -c ${key} can make git run a program`));
    } else if (name === '--config-env' || (name === '--exec-path' && value.includes('='))) {
      return [unknownCommand('git', `git ${name} can make git run programs chosen outside the command line`)];
    } else if (globalValued.has(value)) index++;
  }
  const subcommand = words[index];
  if (!subcommand) return inner;
  if (subcommand.dynamic) return [...inner, unknownCommand('git', 'the git subcommand is known only at run time')];
  const rest = words.slice(index + 1);
  const alias = aliases.get(subcommand.value);
  if (alias !== undefined) {
    if (alias.startsWith('!')) return [...inner, scriptFrom(literalWord(`${alias.slice(1)} ${rest.map((word) => word.value).join(' ')}`.trim()), 'git alias') as InnerCommand];
    if (depth > 3) return [...inner, unknownCommand('git', 'git aliases nest too deeply to follow')];
    return [...inner, ...gitInner([...alias.split(/\s+/).filter(Boolean).map(literalWord), ...rest], depth + 1)];
  }
  if (!gitCommands.has(subcommand.value)) {
    return [...inner, unknownCommand('git', `git ${subcommand.value} is not a git command: it may be an alias from configuration or an external git-${subcommand.value} program`)];
  }
  return [...inner, ...subcommandInner(subcommand.value, rest)];
}

function subcommandInner(subcommand: string, words: ShellWord[]): InnerCommand[] {
  const inner: InnerCommand[] = [];
  const values = words.map((word) => word.value);
  for (let index = 0; index < words.length; index++) {
    const value = values[index] as string;
    const attached = value.includes('=') ? literalWord(value.slice(value.indexOf('=') + 1)) : undefined;
    const valueWord = (words[index] as ShellWord).dynamic ? (words[index] as ShellWord) : attached;
    const next = () => valueWord ?? words[index + 1];
    let script: InnerCommand | undefined;
    if (commandOptions.test(value) || (subcommand === 'rebase' && (value === '-x' || value.startsWith('--exec'))) || (subcommand === 'difftool' && (value === '-x' || value.startsWith('--extcmd')))) {
      script = scriptFrom(next(), `git ${subcommand}`);
    } else if ((subcommand === 'clone' || subcommand === 'ls-remote') && value === '-u') script = scriptFrom(words[index + 1], `git ${subcommand}`);
    else if (subcommand === 'filter-branch' && /^--[a-z-]+-filter$/.test(value)) script = scriptFrom(words[index + 1], 'git filter-branch');
    if (script) inner.push(script);
  }
  if (subcommand === 'bisect' && values[0] === 'run' && words.length > 1) inner.push({ kind: 'argv', words: words.slice(1), via: 'git bisect run' });
  if (subcommand === 'submodule') {
    const foreach = values.indexOf('foreach');
    if (foreach !== -1) {
      const command = words.slice(foreach + 1).filter((word) => word.value !== '--recursive' && word.value !== '-q' && word.value !== '--quiet');
      const script = joinedScript(command, 'git submodule foreach');
      if (script) inner.push(script);
    }
  }
  return inner;
}
