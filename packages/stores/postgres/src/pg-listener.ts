import pg, { type ClientConfig } from 'pg';

export interface ListenerOptions {
  clientConfig: ClientConfig;
  channel: string;
  onNotification(payload: string): void;
  /** A connection after a lost one is listening: notifications sent in between were missed. */
  onReconnect(): void;
}

/** Reconnect delays (each with ±50% jitter so many workers do not reconnect in step), then the last one repeats. */
const backoffMs = [100, 250, 500, 1000, 2000, 5000];

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/**
 * One dedicated LISTEN connection (not a pooled one: LISTEN belongs to a session, and a pooled
 * connection goes back to other users). Opened on the first `ready()`; when it drops it
 * reconnects with backoff, re-issues LISTEN and calls `onReconnect`, until `close()`.
 */
export class NotificationListener {
  readonly #options: ListenerOptions;
  #client: pg.Client | undefined;
  #ready = deferred();
  #connected = false;
  #started = false;
  #closed = false;
  #connections = 0;
  #attempt = 0;
  #retry: NodeJS.Timeout | undefined;

  constructor(options: ListenerOptions) {
    this.#options = options;
  }

  /** Resolves once LISTEN is active (at once when it is), or when the listener is closed. */
  ready(): Promise<void> {
    if (!this.#started) {
      this.#started = true;
      void this.#connect();
    }
    return this.#ready.promise;
  }

  async #connect(): Promise<void> {
    if (this.#closed) return;
    const { clientConfig, channel } = this.#options;
    // TCP keepalive: a connection whose peer vanished (no FIN, no RST) is noticed in about a minute.
    const client = new pg.Client({ ...clientConfig, application_name: 'cairn-store-listener', keepAlive: true, keepAliveInitialDelayMillis: 10_000 });
    let lost = false;
    const onLost = () => {
      if (lost) return;
      lost = true;
      this.#lost(client);
    };
    client.on('error', onLost);
    client.on('end', onLost);
    client.on('notification', (message) => {
      if (message.channel === channel) this.#options.onNotification(message.payload ?? '');
    });
    try {
      await client.connect();
      await client.query(`LISTEN "${channel}"`);
    } catch {
      onLost();
      return;
    }
    if (lost) return;
    if (this.#closed) {
      await client.end().catch(() => {});
      return;
    }
    this.#client = client;
    this.#connected = true;
    this.#attempt = 0;
    this.#connections++;
    this.#ready.resolve();
    if (this.#connections > 1) this.#options.onReconnect();
  }

  #lost(client: pg.Client): void {
    if (this.#client === client) this.#client = undefined;
    client.end().catch(() => {});
    if (this.#closed) return;
    // Waits from now on wait for the next connection.
    if (this.#connected) this.#ready = deferred();
    this.#connected = false;
    const base = backoffMs[Math.min(this.#attempt++, backoffMs.length - 1)] as number;
    this.#retry = setTimeout(() => void this.#connect(), base * (0.5 + Math.random()));
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    this.#ready.resolve();
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => {});
  }
}
