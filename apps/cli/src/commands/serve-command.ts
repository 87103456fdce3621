import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { describeCliError } from '../cli-errors.js';
import { cliCairnHome } from './mcp-trust-store.js';
import { openSharedStore } from './shared-store.js';

export interface ServeCommandOptions {
  host: string;
  port: number;
  token?: string;
  roots: string[];
  corsOrigins: string[];
  maxBodyBytes?: number;
  heartbeatMs?: number;
  sandbox: boolean;
  /** Open the chat page in the default browser (xdg-open / open / start). */
  open?: boolean;
  /** A PostgreSQL URL: agents live there and their runs are queued for `cairn worker`. */
  store?: string;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: Record<string, string | undefined>;
  /** Resolves when the server should stop (SIGINT / SIGTERM). */
  stopped: Promise<void>;
}

/**
 * `cairn serve`: the agent server and its chat page for the folder it runs in (docs/server-api.md).
 * Prints where it listens and, when the token was generated, the chat address with the token in
 * its fragment (never sent to the server in a URL, never written to its log).
 */
export async function runServeCommand(options: ServeCommandOptions): Promise<number> {
  const { startCairnServer } = await import('@cairn/server');
  let server: Awaited<ReturnType<typeof startCairnServer>>;
  let shared: Awaited<ReturnType<typeof openSharedStore>> | undefined;
  try {
    if (options.store) shared = await openSharedStore(options.store);
    server = await startCairnServer({
      ...(shared ? { store: shared.store, agentDefaults: { background: shared.queue } } : {}),
      host: options.host,
      port: options.port,
      ...(options.token ? { token: options.token } : {}),
      roots: options.roots.map((root) => resolve(root)),
      corsOrigins: options.corsOrigins,
      ...(options.maxBodyBytes ? { maxBodyBytes: options.maxBodyBytes } : {}),
      ...(options.heartbeatMs ? { heartbeatMs: options.heartbeatMs } : {}),
      home: cliCairnHome(options.env),
      env: options.env,
      sandbox: options.sandbox,
    });
  } catch (error) {
    options.stderr.write(`${serveFailure(error, options)}\n`);
    await closeShared(shared);
    return 1;
  }
  options.stdout.write(`cairn serve listening on ${server.url}\n`);
  options.stdout.write(server.tokenGenerated ? `chat: ${server.url}/#token=${server.token}\n` : `chat: ${server.url}/ (sign in with your token)\n`);
  if (options.open && server.chatPage) openInBrowser(`${server.url}/#token=${server.token}`, options.stderr);
  if (!server.chatPage) options.stderr.write('cairn serve: the chat page is not built (pnpm --filter @cairn/chat-ui build); the API works without it.\n');
  options.stderr.write(`roots: ${server.roots.join(', ')}${server.resumedAgents.length ? ` · resumed ${server.resumedAgents.length} agent(s) with runs left waiting` : ''}\n`);
  if (shared) options.stderr.write('store: PostgreSQL · runs are queued for `cairn worker --store` processes\n');
  await options.stopped;
  await server.close();
  await closeShared(shared);
  return 0;
}

async function closeShared(shared: Awaited<ReturnType<typeof openSharedStore>> | undefined): Promise<void> {
  await shared?.queue.close();
  await shared?.store.close();
}

/** Best effort: a machine without a desktop has no opener, and the printed address still works. */
function openInBrowser(url: string, stderr: NodeJS.WritableStream): void {
  const [command, ...args] = process.platform === 'darwin' ? ['open', url] : process.platform === 'win32' ? ['cmd', '/c', 'start', '', url] : ['xdg-open', url];
  const child = spawn(command!, args, { detached: true, stdio: 'ignore' });
  child.on('error', () => stderr.write(`cairn serve: could not open a browser (${command} failed); open the chat address above yourself.\n`));
  child.unref();
}

function serveFailure(error: unknown, options: ServeCommandOptions): string {
  const code = (error as { code?: string }).code;
  if (code === 'EADDRINUSE') return `cairn serve: port ${options.port} on ${options.host} is in use: pass another --port (0 picks a free one).`;
  if (code === 'EACCES') return `cairn serve: not allowed to listen on ${options.host}:${options.port}: use a port above 1023.`;
  if (error instanceof Error && !(error as { code?: string }).code) return `cairn serve: ${error.message}`;
  return describeCliError(error);
}
