import type { Command } from 'commander';
import { InvalidArgumentError, Option } from '../commander.js';
import type { CliIo } from '../cli.js';

export interface McpCommandContext {
  io: CliIo;
  /** A subcommand's `--cwd`, else the program's, else the current folder. */
  workspaceOf(options: { cwd?: string }): string;
  setExitCode(code: number): void;
}

const seconds = (value: string) => {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new InvalidArgumentError('must be a positive whole number of seconds.');
  return number;
};

const cwdOption = () => new Option('--cwd <dir>', "the workspace folder (default: the program's --cwd, else the current folder)");
const timeoutOption = () => new Option('--timeout <seconds>', 'how long starting the servers may take').argParser(seconds).default(60);

/** `cairn mcp list | trust | untrust`; each command's module loads only when it runs. */
export function registerMcpCommands(program: Command, context: McpCommandContext): void {
  const { io } = context;
  const mcp = program.command('mcp').description("MCP servers from config files: list them, trust a workspace's project servers");
  mcp
    .command('list')
    .description('the servers an agent in the workspace gets from config files, started to show their state and tools')
    .addOption(cwdOption())
    .addOption(timeoutOption())
    .option('--json', 'print { workspace, servers, warnings, timedOut }', false)
    .action(async (options: { cwd?: string; timeout: number; json: boolean }) => {
      const { runMcpListCommand } = await import('./mcp-list-command.js');
      const run = (signal: AbortSignal) =>
        runMcpListCommand({ cwd: context.workspaceOf(options), json: options.json, timeoutMs: options.timeout * 1000, signal, stdout: io.stdout, stderr: io.stderr, env: io.env });
      context.setExitCode(await untilInterrupted(run));
    });
  mcp
    .command('trust')
    .description("confirm the workspace's project servers (.cairn/mcp.json, .cursor/mcp.json, .mcp.json) so agents may start them")
    .addOption(cwdOption())
    .option('--yes', 'trust every project server not trusted yet without asking (read the files first)', false)
    .addOption(timeoutOption())
    .option('--json', 'print the resulting list as JSON', false)
    .action(async (options: { cwd?: string; yes: boolean; timeout: number; json: boolean }) => {
      const { runMcpTrustCommand } = await import('./mcp-trust-command.js');
      const run = (signal: AbortSignal) =>
        runMcpTrustCommand({
          cwd: context.workspaceOf(options), yes: options.yes, json: options.json, timeoutMs: options.timeout * 1000, signal,
          stdin: io.stdin, stdout: io.stdout, stderr: io.stderr, env: io.env,
        });
      context.setExitCode(await untilInterrupted(run));
    });
  mcp
    .command('untrust [names...]')
    .description('forget the confirmed project servers of the workspace (all, or the named ones): cairn asks again')
    .addOption(cwdOption())
    .action(async (names: string[], options: { cwd?: string }) => {
      const { runMcpUntrustCommand } = await import('./mcp-trust-command.js');
      context.setExitCode(await runMcpUntrustCommand({ cwd: context.workspaceOf(options), names, stdout: io.stdout, stderr: io.stderr, env: io.env }));
    });
}

/** Ctrl+C becomes an abort, so a command that started servers closes them before the process exits. */
async function untilInterrupted(command: (signal: AbortSignal) => Promise<number>): Promise<number> {
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once('SIGINT', onSignal);
  try {
    return await command(controller.signal);
  } finally {
    process.off('SIGINT', onSignal);
  }
}
