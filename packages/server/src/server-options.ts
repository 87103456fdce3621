import { randomBytes } from 'node:crypto';
import type { AgentOptions, AgentStore, Registry } from '@cairn/core';

/** How a Cairn server is started (`cairn serve` maps its flags onto these). */
export interface CairnServerOptions {
  /** Default `127.0.0.1`: only this machine can connect unless the host says otherwise. */
  host?: string;
  /** Default 4780; 0 picks a free port (read it from `server.url`). */
  port?: number;
  /** The bearer token every `/v1` route needs. Default: `CAIRN_SERVER_TOKEN`, else 32 random bytes. */
  token?: string;
  /** Folders agents may work in. Default: the folder the server was started in. */
  roots?: string[];
  /** Origins allowed by CORS; none (CORS off) by default. */
  corsOrigins?: string[];
  /** Largest request body accepted, in bytes. Default 1 MiB. */
  maxBodyBytes?: number;
  /** How often an idle event stream gets a `: ping` comment. Default 15 000 ms. */
  heartbeatMs?: number;
  /** Where the server keeps what the SDK does not store (per-agent settings, remembered rules). Default `$CAIRN_HOME`. */
  home?: string;
  /** Keys and provider settings for the agents, and what tools see. Default `process.env`. */
  env?: Record<string, string | undefined>;
  /** The agent store. Default: the SDK's (SQLite under `$CAIRN_HOME`). */
  store?: AgentStore;
  /** Providers, tools and modes. Default: the SDK's registry with every default plugin. */
  registry?: Registry;
  /** Serve the chat page at `/` (default true). */
  chatPage?: boolean;
  /** Run every agent's shell commands in the OS sandbox unless its own settings say otherwise. */
  sandbox?: boolean;
  /** Options every agent of this server gets, under the per-agent ones (e.g. `permissions.deny`, `retry`). */
  agentDefaults?: Omit<Partial<AgentOptions>, 'local'>;
}

export interface ResolvedServerOptions {
  host: string;
  port: number;
  token: string;
  tokenGenerated: boolean;
  roots: string[];
  corsOrigins: string[];
  maxBodyBytes: number;
  heartbeatMs: number;
  env: Record<string, string | undefined>;
  chatPage: boolean;
}

const defaultPort = 4780;
const defaultMaxBody = 1024 * 1024;
const defaultHeartbeat = 15_000;

/** Defaults filled in and values checked: a bad option fails the start with a message saying what to change. */
export function resolveServerOptions(options: CairnServerOptions): ResolvedServerOptions {
  const env = options.env ?? process.env;
  const given = options.token ?? env.CAIRN_SERVER_TOKEN;
  if (given !== undefined && given.length < 16) throw new Error('The server token must be at least 16 characters (pass a longer --token or CAIRN_SERVER_TOKEN, or leave both unset to get a random one).');
  const port = options.port ?? defaultPort;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`The port must be a whole number from 0 to 65535, got ${port}.`);
  return {
    host: options.host ?? '127.0.0.1',
    port,
    token: given ?? randomBytes(32).toString('base64url'),
    tokenGenerated: given === undefined,
    roots: options.roots?.length ? options.roots : [process.cwd()],
    corsOrigins: options.corsOrigins ?? [],
    maxBodyBytes: positive(options.maxBodyBytes, defaultMaxBody, 'maxBodyBytes'),
    heartbeatMs: positive(options.heartbeatMs, defaultHeartbeat, 'heartbeatMs'),
    env,
    chatPage: options.chatPage ?? true,
  };
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got ${value}.`);
  return value;
}
