import type { Command } from 'commander';
import { Argument } from '../commander.js';
import type { CliIo } from '../cli.js';

interface InstallCommandsContext {
  io: CliIo;
  color: boolean;
  workspaceOf: (options: { cwd?: string }) => string;
  setExitCode: (code: number) => void;
}

/** `cairn doctor` and `cairn completion`: the commands that check and finish an install. */
export function registerInstallCommands(program: Command, context: InstallCommandsContext): void {
  const { io } = context;
  program
    .command('doctor')
    .description('check Node, the sandbox, the providers, the store and the workspace index; ok / warn / fail with what to do')
    .option('--cwd <dir>', 'the workspace whose index is checked (default: the program\'s --cwd, else the current folder)')
    .option('--json', 'print { version, ok, checks: [{ name, status, message, fix }] }', false)
    .action(async (options: { cwd?: string; json: boolean }) => {
      const { runDoctorCommand } = await import('./doctor-command.js');
      context.setExitCode(await runDoctorCommand({ cwd: context.workspaceOf(options), json: options.json, color: context.color, stdout: io.stdout, env: io.env }));
    });
  program
    .command('completion')
    .description('print a shell completion script, e.g. eval "$(cairn completion bash)"')
    .addArgument(new Argument('<shell>', 'the shell').choices(['bash', 'zsh', 'fish']))
    .action(async (shell: 'bash' | 'zsh' | 'fish') => {
      const { completionScript } = await import('./completion-command.js');
      io.stdout.write(completionScript(program, shell));
      context.setExitCode(0);
    });
}
