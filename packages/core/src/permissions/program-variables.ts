import { type InnerCommand, literalWord, scriptFrom, unknownCommand } from './inner-command.js';
import type { ShellWord } from './shell-words.js';

// Variables whose value a program runs as a shell command (`PAGER='rm x' git -p log`).
const commandVariables = new Set([
  'PAGER', 'GIT_PAGER', 'MANPAGER', 'SYSTEMD_PAGER', 'BAT_PAGER', 'DELTA_PAGER', 'EDITOR', 'VISUAL', 'GIT_EDITOR', 'GIT_SEQUENCE_EDITOR', 'SUDO_EDITOR',
  'GIT_SSH_COMMAND', 'GIT_SSH', 'GIT_PROXY_COMMAND', 'GIT_EXTERNAL_DIFF', 'GIT_ASKPASS', 'SSH_ASKPASS', 'SUDO_ASKPASS', 'LESSOPEN', 'LESSCLOSE', 'BROWSER',
  'PROMPT_COMMAND', 'FZF_DEFAULT_COMMAND', 'RSYNC_RSH', 'CVS_RSH',
]);
// Variables that choose which programs, libraries or configuration run: the program is not known.
const loaderVariables = new Set([
  'PATH', 'BASH_ENV', 'ENV', 'GIT_EXEC_PATH', 'GIT_CONFIG_PARAMETERS', 'GIT_CONFIG_COUNT', 'GIT_CONFIG', 'GIT_CONFIG_GLOBAL', 'GIT_CONFIG_SYSTEM', 'GIT_DIR',
  'GIT_WORK_TREE', 'GIT_TEMPLATE_DIR', 'NODE_OPTIONS', 'PYTHONSTARTUP', 'PYTHONPATH', 'PYTHONHOME', 'PERL5OPT', 'PERL5LIB', 'RUBYOPT', 'RUBYLIB', 'SHELLOPTS',
  'BASHOPTS', 'PS4',
]);
const loaderPatterns = [/^GIT_CONFIG_(?:KEY|VALUE)_\d+$/, /^BASH_FUNC_/, /^LD_/, /^DYLD_/];

/** What setting `name` to `value` can make a later program run (empty for ordinary variables). */
export function variableInnerCommands(name: string, value: ShellWord | undefined, via: string): InnerCommand[] {
  if (commandVariables.has(name)) {
    const script = scriptFrom(value ?? literalWord(''), `${name}=`);
    return script ? [script] : [];
  }
  if (loaderVariables.has(name) || loaderPatterns.some((pattern) => pattern.test(name))) {
    return [unknownCommand(via, `${name} changes which programs or code run, so what runs is not known from the command line`)];
  }
  return [];
}

/** The same for a `NAME=value` word given to a wrapper (`env PAGER=x git log`). */
export function assignmentInnerCommands(word: ShellWord, via: string): InnerCommand[] {
  const equals = word.value.indexOf('=');
  const name = word.value.slice(0, equals);
  const rest = word.value.slice(equals + 1);
  const value: ShellWord = word.dynamic ? { ...word, value: rest } : literalWord(rest);
  return variableInnerCommands(name, value, via);
}
