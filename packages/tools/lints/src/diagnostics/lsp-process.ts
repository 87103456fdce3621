import { type ChildProcess, spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, type MessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver-protocol/node.js';
import type { InitializeResult } from 'vscode-languageserver-protocol';
import type { LanguageServerConfig } from './diagnostics-settings.js';

/** A started language server: its process (a group of its own) and the JSON-RPC connection to it. */
export interface LspProcess {
  readonly pid: number;
  readonly connection: MessageConnection;
  readonly capabilities: InitializeResult['capabilities'];
  /** Resolves when the process has exited, however. */
  readonly exited: Promise<void>;
  /** The last lines the server wrote to stderr, for error messages. */
  stderrTail(): string;
  /** LSP shutdown and exit, then the whole process group killed: nothing it started survives. */
  close(): Promise<void>;
  /** Synchronous SIGKILL of the process group, for process exit. */
  kill(): void;
}

/**
 * Start `config.command` in the workspace root in a process group of its own, with the given
 * (reduced) environment, and initialize it. The server reads the workspace; it is not given the
 * agent's API keys.
 */
export async function startLspProcess(config: LanguageServerConfig, root: string, env: Record<string, string>, signal: AbortSignal): Promise<LspProcess> {
  const [program, ...args] = config.command as [string, ...string[]];
  const child = spawn(program, args, { cwd: root, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const spawned = new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', (error) => reject(new Error(`${config.id} language server could not start (${program}): ${error.message}`)));
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-2000);
  });
  await spawned;
  const pid = child.pid as number;
  const kill = () => killGroup(child);
  const connection = createMessageConnection(new StreamMessageReader(child.stdout as NodeJS.ReadableStream), new StreamMessageWriter(child.stdin as NodeJS.WritableStream));
  // Requests a server sends (workspace/configuration, window/workDoneProgress/create) get empty answers.
  connection.onRequest((_method: string, _params: unknown) => null);
  connection.onError(() => undefined);
  connection.listen();
  const onAbort = () => kill();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    const result = await Promise.race([
      connection.sendRequest<InitializeResult>('initialize', {
        processId: process.pid,
        rootUri: pathToFileURL(root).href,
        workspaceFolders: [{ uri: pathToFileURL(root).href, name: 'workspace' }],
        capabilities: {
          textDocument: { publishDiagnostics: { versionSupport: true, relatedInformation: false }, diagnostic: { dynamicRegistration: false }, synchronization: { didSave: false } },
          workspace: { configuration: false, workspaceFolders: true },
        },
        initializationOptions: config.initializationOptions ?? {},
      }),
      exited.then(() => {
        throw new Error(`${config.id} language server exited during start-up${stderr ? `: ${stderr.trim().split('\n').slice(-3).join(' ')}` : ''}`);
      }),
    ]);
    connection.sendNotification('initialized', {});
    return {
      pid,
      connection,
      capabilities: result.capabilities,
      exited,
      stderrTail: () => stderr,
      kill,
      close: async () => {
        const polite = (async () => {
          await connection.sendRequest('shutdown');
          await connection.sendNotification('exit');
        })().catch(() => undefined);
        await Promise.race([polite.then(() => exited), delay(1500)]);
        kill();
        await Promise.race([exited, delay(1500)]);
        connection.dispose();
      },
    };
  } catch (error) {
    kill();
    connection.dispose();
    throw error;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
