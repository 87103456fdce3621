import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { McpSdk } from './mcp-sdk.js';
import { MessageLines } from './message-lines.js';
import { killProcessGroup, trackProcessGroup, usesProcessGroups } from './process-groups.js';

export interface ProcessTransportOptions {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  codec: Pick<McpSdk, 'serializeMessage' | 'deserializeMessage'>;
  /** Largest single message accepted from the server. */
  maxMessageBytes?: number;
  /** How long a server gets to exit after SIGTERM before SIGKILL. */
  killGraceMs?: number;
}

const stderrTailBytes = 4096;

/**
 * The SDK's stdio transport, redone over `child_process.spawn` with the server as leader of its
 * own process group (`detached`): closing, a crash and host exit kill the whole group, so nothing
 * the server started survives it. Messages are the SDK's own newline-delimited JSON-RPC.
 */
export class ProcessGroupTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  private child?: ChildProcessWithoutNullStreams;
  private readonly lines: MessageLines;
  private stderrTail = '';
  private exit?: { code: number | null; signal: NodeJS.Signals | null };
  private ended?: Promise<void>;
  private stopping?: Promise<void>;

  constructor(private readonly options: ProcessTransportOptions) {
    this.lines = new MessageLines(options.maxMessageBytes ?? 64 * 1_048_576);
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** How the process ended and the last of its stderr, for error messages. */
  describeExit(): string {
    const how = !this.exit ? 'is still running' : this.exit.signal ? `was killed by ${this.exit.signal}` : `exited with code ${this.exit.code}`;
    const output = this.lastOutput();
    return output ? `${how}; its last output: ${output}` : how;
  }

  /** The end of what the server wrote to stderr. */
  lastOutput(): string {
    return this.stderrTail.trim();
  }

  start(): Promise<void> {
    if (this.child) return Promise.reject(new Error('This MCP server process was started already.'));
    const { command, args, cwd, env } = this.options;
    return new Promise((resolve, reject) => {
      const child = spawn(command, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'], detached: usesProcessGroups, windowsHide: true });
      this.child = child;
      let spawned = false;
      child.once('spawn', () => {
        spawned = true;
        if (usesProcessGroups && child.pid !== undefined) trackProcessGroup(child.pid);
        resolve();
      });
      child.on('error', (error) => (spawned ? this.onerror?.(error) : reject(spawnError(command, error))));
      child.stdout.on('data', (chunk: Buffer) => this.read(chunk));
      child.stderr.on('data', (chunk: Buffer) => {
        this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-stderrTailBytes);
      });
      // EPIPE after the server exited; the exit itself is reported through onclose.
      child.stdin.on('error', () => {});
      this.ended = new Promise((done) => child.once('close', () => done()));
      child.once('exit', (code, signal) => this.exited(code, signal));
      child.once('close', () => this.onclose?.());
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin?.writable || this.exit) return Promise.reject(new Error('The MCP server process is not running.'));
    return new Promise((resolve, reject) => {
      stdin.write(this.options.codec.serializeMessage(message), (error) => (error ? reject(error) : resolve()));
    });
  }

  /** Ends the server and every process in its group; resolves once its pipes are closed. */
  close(): Promise<void> {
    this.stopping ??= this.stop();
    return this.stopping;
  }

  private async stop(): Promise<void> {
    const child = this.child;
    // Never started, or the spawn itself failed (no process to stop).
    if (child?.pid === undefined) return;
    child.stdin.end();
    await this.killTree(child);
    // A process outside the group (one that called setsid) may still hold the pipes open.
    child.stdout.destroy();
    child.stderr.destroy();
    await this.ended;
  }

  private exited(code: number | null, signal: NodeJS.Signals | null): void {
    this.exit = { code, signal };
    // The leader is gone (a crash, or its own exit): what it started goes with it.
    void this.close();
  }

  private async killTree(child: ChildProcessWithoutNullStreams): Promise<void> {
    const graceMs = this.options.killGraceMs ?? 2000;
    if (usesProcessGroups && child.pid !== undefined) return killProcessGroup(child.pid, graceMs);
    if (this.exit) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await new Promise((done) => child.once('exit', done));
    clearTimeout(timer);
  }

  private read(chunk: Buffer): void {
    let lines: string[];
    try {
      lines = this.lines.push(chunk);
    } catch (error) {
      this.onerror?.(error as Error);
      void this.close();
      return;
    }
    for (const line of lines) {
      if (line.trim() === '') continue;
      try {
        this.onmessage?.(this.options.codec.deserializeMessage(line));
      } catch {
        // A server that prints logs to stdout: skip the line, as the SDK's transport does.
        this.onerror?.(new Error(`The MCP server wrote a line that is not a JSON-RPC message: ${line.slice(0, 200)}`));
      }
    }
  }
}

function spawnError(command: string, error: NodeJS.ErrnoException): Error {
  if (error.code === 'ENOENT') return new Error(`command "${command}" was not found: install it, or give its full path in "command"`);
  if (error.code === 'EACCES') return new Error(`command "${command}" is not executable: check its permissions, or give the program that runs it in "command"`);
  return new Error(`command "${command}" could not be started: ${error.message}`);
}
