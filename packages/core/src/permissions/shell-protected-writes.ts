import { isAbsolute, resolve } from 'node:path';
import { type AgentHomes, agentSettingsLocations, protectedPathReason } from '../node/protected-paths.js';
import type { ShellCommandAnalysis, ShellCommandPart } from './shell-analysis.js';

// Programs whose operands are files they create, change or remove. Their words, and every
// redirection target, are checked against the protected paths.
const fileWriters = new Set([
  'cp', 'mv', 'rm', 'ln', 'touch', 'tee', 'install', 'rsync', 'chmod', 'chown', 'chgrp', 'truncate', 'dd', 'shred', 'unlink', 'rmdir', 'mkdir',
  'patch', 'sed', 'perl', 'curl', 'wget', 'tar', 'unzip', 'cpio', 'git-config', 'ed', 'ex', 'vi', 'vim', 'nano', 'sponge', 'mkfifo', 'mknod',
]);

/** `~`, `$HOME`, `${HOME}`, `$CAIRN_HOME`, `${CAIRN_HOME}` at the start of a word, as the shell would expand them. */
function expandHomes(word: string, homes: AgentHomes): string {
  return word
    .replace(/^~(?=\/|$)/, homes.userHome)
    .replace(/^\$(?:\{HOME\}|HOME\b)/, homes.userHome)
    .replace(/^\$(?:\{CAIRN_HOME\}|CAIRN_HOME\b)/, homes.cairnHome);
}

function pathReason(word: string, cwd: string, homes: AgentHomes): string | undefined {
  const value = word.includes('=') && word.startsWith('-') ? word.slice(word.indexOf('=') + 1) : word.replace(/^of=/, '');
  if (!value || /^-/.test(value)) return undefined;
  const expanded = expandHomes(value, homes);
  const path = isAbsolute(expanded) ? expanded : resolve(cwd, expanded);
  const reason = protectedPathReason(cwd, path, homes);
  return reason ? `${value}: ${reason}` : undefined;
}

/** Text that names the user-level settings anywhere in a word (inline code, `--file=...`, `a:b` lists). */
function namesUserSettings(word: string, homes: AgentHomes): boolean {
  const locations = agentSettingsLocations(homes).map((location) => location.path.replace(/\/+$/, ''));
  const homeRelative = locations.filter((location) => location.startsWith(`${homes.userHome}/`)).map((location) => location.slice(homes.userHome.length));
  // biome-ignore lint/suspicious/noTemplateCurlyInString: literal shell spellings of the variable
  const spelled = [...locations, ...homeRelative.flatMap((rest) => [`~${rest}`, `$HOME${rest}`, `\${HOME}${rest}`]), '$CAIRN_HOME', '${CAIRN_HOME}'];
  return spelled.some((text) => word.includes(text));
}

const programName = (part: ShellCommandPart) => (part.program ?? '').slice((part.program ?? '').lastIndexOf('/') + 1);

/** `git [global options] config ...`: every form that is not read-only writes .git/config or the user's git configuration. */
function isGitConfigWrite(part: ShellCommandPart): boolean {
  if (programName(part) !== 'git') return false;
  const args = part.argv.slice(1);
  let index = 0;
  while (index < args.length && (args[index] as string).startsWith('-')) index += ['-C', '-c', '--git-dir', '--work-tree', '--namespace'].includes(args[index] as string) ? 2 : 1;
  return args[index] === 'config';
}

/**
 * Why the command may write a protected path (git internals, the agent's own settings in the
 * workspace and under `$CAIRN_HOME`, shell start-up files), or undefined. Outside the OS sandbox
 * this check is what keeps a command from rewriting the permissions the next run obeys; inside it,
 * the sandbox's read-only mounts do. It looks at what the command line names: redirection targets,
 * the operands of programs that write files, and any mention of the user-level settings by a
 * command that is not read-only. A path built at run time is for the sandbox to stop.
 */
export function protectedShellWrite(analysis: ShellCommandAnalysis, cwd: string, homes: AgentHomes): string | undefined {
  for (const target of analysis.redirectTargets) {
    const reason = pathReason(target, cwd, homes);
    if (reason) return `the command writes ${reason}`;
  }
  for (const part of analysis.parts) {
    if (part.readOnly) continue;
    if (isGitConfigWrite(part)) return 'git config changes the git configuration (.git/config, ~/.gitconfig), which decides what git runs later (core.fsmonitor, core.hooksPath, aliases)';
    const words = [...part.argv.slice(1), ...part.assignments];
    if (fileWriters.has(programName(part))) {
      for (const word of words) {
        const reason = pathReason(word, cwd, homes);
        if (reason) return `${programName(part)} would change ${reason}`;
      }
    }
    const mention = words.find((word) => namesUserSettings(word, homes));
    if (mention) return `the command names the agent's user-level settings (${mention.slice(0, 80)}), which commands may not change`;
  }
  return undefined;
}
