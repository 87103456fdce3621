import type { McpConnection, McpConnectionOptions } from '../connection/connection.js';
import type { ServerDeclaration } from '../config/server-declaration.js';

export type ConnectionFactory = (options: McpConnectionOptions) => McpConnection;

/** A server's connection, shared by every run that uses the same name and config. */
export interface PooledConnection {
  key: string;
  declaration: ServerDeclaration;
  connection: McpConnection;
  /** Settles when the first start is over; never rejects (a failure is in `startError` and the connection's state). */
  started: Promise<void>;
  startError?: string;
}

/** Declarations share a connection when origin, name and expanded config are the same. */
export function connectionKey(declaration: ServerDeclaration): string {
  return `${declaration.origin}\u0000${declaration.name}\u0000${declaration.configHash}`;
}

/** An agent's connections by key: started on first use, closed by `retain` (reload) and `closeAll`. */
export class ConnectionPool {
  private readonly entries = new Map<string, PooledConnection>();
  // Starts outlive the run that asked for them (later runs share the server); only closing the session stops them.
  private readonly lifetime = new AbortController();

  constructor(private readonly context: { cwd: string; env: Record<string, string | undefined> }) {}

  /** The connection of a usable declaration (one with a `config`), created and started when there is none. */
  acquire(declaration: ServerDeclaration, createConnection: ConnectionFactory): PooledConnection {
    const key = connectionKey(declaration);
    const existing = this.entries.get(key);
    // Entries the session closes leave the pool, so a closed one here was given up by the connection itself.
    if (existing && existing.connection.state !== 'closed') return existing;
    const entry = this.start(key, declaration, createConnection);
    this.entries.set(key, entry);
    return entry;
  }

  find(declaration: ServerDeclaration): PooledConnection | undefined {
    return declaration.config === undefined ? undefined : this.entries.get(connectionKey(declaration));
  }

  /** Closes and forgets every connection `keep` rejects; resolves when they are closed. */
  async retain(keep: (entry: PooledConnection) => boolean): Promise<void> {
    const dropped = [...this.entries.values()].filter((entry) => !keep(entry));
    for (const entry of dropped) this.entries.delete(entry.key);
    await Promise.allSettled(dropped.map((entry) => entry.connection.close()));
  }

  async closeAll(): Promise<void> {
    this.lifetime.abort(new Error('the agent was closed'));
    await this.retain(() => false);
  }

  private start(key: string, declaration: ServerDeclaration, createConnection: ConnectionFactory): PooledConnection {
    const connection = createConnection({
      name: declaration.name,
      config: declaration.config!,
      origin: declaration.origin,
      cwd: this.context.cwd,
      env: this.context.env,
    });
    const entry: PooledConnection = { key, declaration, connection, started: Promise.resolve() };
    entry.started = connection.start(this.lifetime.signal).then(
      () => undefined,
      (error: unknown) => {
        entry.startError = error instanceof Error ? error.message : String(error);
      },
    );
    return entry;
  }
}
