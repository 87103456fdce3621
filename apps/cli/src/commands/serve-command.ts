import { resolve } from 'node:path';
import { describeCliError } from '../cli-errors.js';
import { cliCairnHome } from './mcp-trust-store.js';

export interface ServeCommandOptions {
  host: string;
  port: number;
  token?: string;
  roots: string[];
  corsOrigins: string[];
  maxBodyBytes?: number;
  heartbeatMs?: number;
  sandbox: boolean;
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
  try {
    server = await startCairnServer({
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
    return 1;
  }
  options.stdout.write(`cairn serve listening on ${server.url}\n`);
  options.stdout.write(server.tokenGenerated ? `chat: ${server.url}/#token=${server.token}\n` : `chat: ${server.url}/ (sign in with your token)\n`);
  if (!server.chatPage) options.stderr.write('cairn serve: the chat page is not built (pnpm --filter @cairn/chat-ui build); the API works without it.\n');
  options.stderr.write(`roots: ${server.roots.join(', ')}${server.resumedAgents.length ? ` · resumed ${server.resumedAgents.length} agent(s) with runs left waiting` : ''}\n`);
  await options.stopped;
  await server.close();
  return 0;
}

function serveFailure(error: unknown, options: ServeCommandOptions): string {
  const code = (error as { code?: string }).code;
  if (code === 'EADDRINUSE') return `cairn serve: port ${options.port} on ${options.host} is in use: pass another --port (0 picks a free one).`;
  if (code === 'EACCES') return `cairn serve: not allowed to listen on ${options.host}:${options.port}: use a port above 1023.`;
  if (error instanceof Error && !(error as { code?: string }).code) return `cairn serve: ${error.message}`;
  return describeCliError(error);
}
