import { isAbsolute, relative } from 'node:path';
import { type CliTrustOptions, terminalAsk } from './mcp-trust.js';
import { cliCairnHome, mcpTrustStore } from './mcp-trust-store.js';

/** A project hooks file as the agent asks about it (`local.trustProjectHooks`). */
export interface ProjectHooksFile {
  file: string;
  hash: string;
  commands: string[];
}

/**
 * The `local` options of the CLI's agents for hooks: the project and user hooks files load (the CLI
 * confirms project hooks itself), and each project file goes through `cliTrustProjectHooks`.
 */
export function cliHookLocalOptions(options: CliTrustOptions) {
  return { hookConfigFiles: ['project', 'user'] as Array<'project' | 'user'>, trustProjectHooks: cliTrustProjectHooks(options) };
}

/**
 * Yes for a hooks file whose exact hooks were confirmed before in this workspace (remembered by
 * hash in `<cairnHome>/trusted-hooks.json`, beside the MCP answers); otherwise asks once on the
 * terminal and remembers a yes. Without a terminal nothing new is trusted: the file's hooks are
 * left out and the user is told how to confirm them.
 */
export function cliTrustProjectHooks(options: CliTrustOptions): (file: ProjectHooksFile) => Promise<boolean> {
  const store = options.store ?? mcpTrustStore(cliCairnHome(options.env), 'trusted-hooks.json');
  const ask = options.ask ?? (options.stdin ? terminalAsk(options.stdin, options.stderr) : undefined);
  let queue: Promise<unknown> = Promise.resolve();
  const decide = async (hooks: ProjectHooksFile): Promise<boolean> => {
    const name = displayFile(options.cwd, hooks.file);
    const previous = await store.lookup(options.cwd, name);
    if (previous?.hash === hooks.hash) return true;
    if (!options.yes && !ask) {
      options.stderr.write(`cairn: the hooks of ${name} are ${previous ? 'changed since they were trusted' : 'not trusted'} in this workspace and were left out; run cairn in a terminal to review them.\n`);
      return false;
    }
    const question = [`${name} ${previous ? 'changed since you trusted it' : 'declares hooks'}; they run these commands:`, ...hooks.commands.map((line) => `  ${line}`), 'Run them, and trust these exact hooks in this workspace from now on? [y/N] '].join('\n');
    const yes = options.yes || /^\s*y(es)?\s*$/i.test(await ask!(question));
    if (yes) await store.trust(options.cwd, { name, hash: hooks.hash, file: hooks.file });
    return yes;
  };
  return (hooks) => {
    const answer = queue.then(() => decide(hooks));
    queue = answer.catch(() => undefined);
    return answer.catch((error: unknown) => {
      if ((error as Error | undefined)?.name === 'AbortError') return false;
      options.stderr.write(`cairn: the hooks of ${hooks.file} were left out: ${error instanceof Error ? error.message : String(error)}\n`);
      return false;
    });
  };
}

function displayFile(cwd: string, file: string): string {
  const inside = relative(cwd, file);
  return inside && !inside.startsWith('..') && !isAbsolute(inside) ? inside : file;
}
