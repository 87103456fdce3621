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
  // Ink and React load only for the chat: headless runs and subcommands never pay for them.
  const [{ render }, { createElement }, { ChatApp }, { ChatSession }] = await Promise.all([import('ink'), import('react'), import('../tui/chat-app.js'), import('../tui/chat-session.js')]);
  const session = new ChatSession({ cwd: options.cwd, ...(model ? { model } : {}), ...(options.mode ? { mode: options.mode } : {}), ...(options.resume ? { resume: options.resume } : {}), sandbox: options.sandbox, env: options.env });
  const app = render(createElement(ChatApp, { session, color: options.color }), { stdin: options.stdin, stdout: options.stdout, stderr: options.stderr, exitOnCtrlC: false, patchConsole: true });
  const started = await session.start();
  if (!started) {
    session.store.update({ exited: true });
    await app.waitUntilExit();
    return 2;
  }
  await app.waitUntilExit();
  const agentId = session.agentId;
  await session.close();
  if (agentId) options.stderr.write(`resume with: cairn --resume ${agentId}\n`);
  return 0;
}
