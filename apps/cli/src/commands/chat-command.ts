import { defaultModel, noModelMessage } from '../default-model.js';

export interface ChatCommandOptions {
  cwd: string;
  model?: string;
  mode?: string;
  resume?: string;
  sandbox: boolean;
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  color: boolean;
  env: Record<string, string | undefined>;
}

/**
 * `cairn` alone on a terminal: the interactive terminal UI (Ink; docs/terminal-ui.md). Resolves
 * with the exit code once the user leaves, after printing how to resume the agent.
 */
export async function runChatCommand(options: ChatCommandOptions): Promise<number> {
  const model = options.model ?? (options.resume ? undefined : defaultModel(options.env));
  if (!model && !options.resume) {
    options.stderr.write(`cairn: ${noModelMessage}\n`);
    return 2;
  }
  // chalk (under Ink, marked-terminal and cli-highlight) reads FORCE_COLOR when it loads, but not NO_COLOR.
  if (options.env.NO_COLOR && process.env.FORCE_COLOR === undefined) process.env.FORCE_COLOR = '0';
  // Ink and React load only for the chat: headless runs and subcommands never pay for them.
  const [{ render }, { createElement }, { ChatApp }, { ChatSession }, { setColors }] = await Promise.all([import('ink'), import('react'), import('../tui/chat-app.js'), import('../tui/chat-session.js'), import('../tui/colors.js')]);
  setColors(options.color);
  const session = new ChatSession({ cwd: options.cwd, ...(model ? { model } : {}), ...(options.mode ? { mode: options.mode } : {}), ...(options.resume ? { resume: options.resume } : {}), sandbox: options.sandbox, env: options.env });
  const app = render(createElement(ChatApp, { session, color: options.color }), { stdin: options.stdin, stdout: options.stdout, stderr: options.stderr, exitOnCtrlC: false, patchConsole: true });
  const failure = await session.start();
  if (failure !== undefined) {
    // Printed after the UI is gone, so it is the last thing on the terminal (e.g. an unknown --resume id).
    app.unmount();
    await app.waitUntilExit();
    options.stderr.write(`${failure}\n`);
    return 2;
  }
  // A signal from outside (kill, a closed terminal window) ends the chat the same way /exit does,
  // so the agent is closed and the resume command printed.
  const leave = () => session.store.update({ exited: true });
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  for (const signal of signals) process.on(signal, leave);
  try {
    await app.waitUntilExit();
  } finally {
    for (const signal of signals) process.off(signal, leave);
  }
  const agentId = session.agentId;
  await session.close();
  if (agentId) options.stderr.write(`resume with: cairn --resume ${agentId}\n`);
  return 0;
}
