import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';

/** What a server's agent tools need from its connection. */
export interface McpToolHost {
  /** The server's name in config, as `mcp(server:tool)` rules name it. */
  readonly server: string;
  /** Per-call limit; the tool's own timeout is set a little above it, so this one answers first. */
  readonly callTimeoutMs: number;
  /** Folder for whole results that were too large for the model (and for binary resources). */
  readonly resultDir: string;
  /**
   * One request on the server's live client, with the call's signal and timeout. Rejects with the
   * signal's reason when it aborts, else with an Error the model can read (timed out, crashed and
   * restarted, refused).
   */
  request<T>(label: string, run: (client: Client, options: RequestOptions) => Promise<T>, signal: AbortSignal): Promise<T>;
}
