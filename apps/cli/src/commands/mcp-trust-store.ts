import { mkdir, readFile, realpath, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/** One confirmed project server: the config hash the user said yes to. */
export interface TrustedServer {
  hash: string;
  /** The project file that declared it when it was confirmed (for the user reading the file). */
  file: string;
  trustedAt: string;
}

interface TrustFile {
  version: 1;
  /** Keyed by the workspace's canonical path (symlinks resolved), then by server name. */
  workspaces: Record<string, { servers: Record<string, TrustedServer> }>;
}

/**
 * The CLI's remembered answers to "start this project's MCP server?", in `<cairnHome>/trusted-mcp.json`.
 * The file lives under `$CAIRN_HOME`, which agents cannot write, so an agent cannot trust servers for
 * the user. A server is trusted only with the exact config hash that was confirmed: any change to its
 * command, args, env, url or headers is a new hash and asks again.
 */
export interface McpTrustStore {
  readonly file: string;
  /** What was confirmed for this server name in this workspace, whatever its hash. */
  lookup(workspace: string, name: string): Promise<TrustedServer | undefined>;
  isTrusted(workspace: string, server: { name: string; hash: string }): Promise<boolean>;
  trust(workspace: string, server: { name: string; hash: string; file: string }): Promise<void>;
  /** Forget the named servers (all of the workspace's when `names` is empty); returns the names forgotten. */
  forget(workspace: string, names?: readonly string[]): Promise<string[]>;
}

/** `$CAIRN_HOME`, default `~/.cairn`, the same default as the agent's settings loaders. */
export function cliCairnHome(env: Record<string, string | undefined>): string {
  return resolve(env.CAIRN_HOME?.trim() || join(homedir(), '.cairn'));
}

/**
 * `fileName`: the same store keeps other confirmations of project config by hash (the hooks files:
 * `trusted-hooks.json`, keyed by the file's path in the workspace).
 */
export function mcpTrustStore(cairnHome: string, fileName = 'trusted-mcp.json'): McpTrustStore {
  const file = join(cairnHome, fileName);
  return {
    file,
    async lookup(workspace, name) {
      const data = await readTrustFile(file);
      return data.workspaces[await canonical(workspace)]?.servers[name];
    },
    async isTrusted(workspace, server) {
      return (await this.lookup(workspace, server.name))?.hash === server.hash;
    },
    async trust(workspace, server) {
      const key = await canonical(workspace);
      // Read right before writing, so another cairn process's answers given meanwhile are kept.
      const data = await readTrustFile(file);
      const entry = (data.workspaces[key] ??= { servers: {} });
      entry.servers[server.name] = { hash: server.hash, file: server.file, trustedAt: new Date().toISOString() };
      await writeTrustFile(file, data);
    },
    async forget(workspace, names = []) {
      const key = await canonical(workspace);
      const data = await readTrustFile(file);
      const servers = data.workspaces[key]?.servers ?? {};
      const forgotten = Object.keys(servers).filter((name) => names.length === 0 || names.includes(name));
      if (forgotten.length === 0) return [];
      for (const name of forgotten) delete servers[name];
      if (Object.keys(servers).length === 0) delete data.workspaces[key];
      await writeTrustFile(file, data);
      return forgotten;
    },
  };
}

/** The workspace as the trust file keys it: absolute, symlinks resolved (a missing folder keeps its resolved path). */
async function canonical(workspace: string): Promise<string> {
  const absolute = resolve(workspace);
  return realpath(absolute).catch(() => absolute);
}

async function readTrustFile(file: string): Promise<TrustFile> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, workspaces: {} };
    throw error;
  }
  // A damaged file is an error, never "nothing trusted" that the next write would silently replace.
  const fix = `Fix it, or delete it to be asked again about every project's MCP servers.`;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file} is not valid JSON (${(error as Error).message}). ${fix}`);
  }
  if (!isTrustFile(data)) throw new Error(`${file} is not a trust file of this cairn version (expected { "version": 1, "workspaces": { ... } }). ${fix}`);
  return data;
}

function isTrustFile(data: unknown): data is TrustFile {
  if (typeof data !== 'object' || data === null) return false;
  const record = data as Record<string, unknown>;
  if (record.version !== 1 || typeof record.workspaces !== 'object' || record.workspaces === null) return false;
  return Object.values(record.workspaces).every((entry) => {
    const servers = (entry as { servers?: unknown } | null)?.servers;
    return typeof servers === 'object' && servers !== null && Object.values(servers).every((server) => typeof (server as TrustedServer | null)?.hash === 'string');
  });
}

/** Write to a temporary file and rename it over the old one, so a reader never sees half a file. */
async function writeTrustFile(file: string, data: TrustFile): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, file);
}
