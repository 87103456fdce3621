import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigurationError } from '../spec/errors/index.js';

/**
 * Configuration files of the de-facto formats (Cursor, Claude Code, Cairn's own) that declare hooks,
 * MCP servers or subagents, which Cairn does not load yet (MCP files: when no MCP plugin is
 * registered). Files of a layer the agent was asked to load explicitly are refused rather than
 * skipped: hooks are a project's policy boundary and MCP servers or subagents change what the agent
 * can do, so running without them would be a quiet lie.
 */
const projectHookFiles = ['.cursor/hooks.json', '.cairn/hooks.json'];
const projectMcpFiles = ['.cursor/mcp.json', '.cairn/mcp.json', '.mcp.json'];
const projectAgentFolders = ['.cursor/agents', '.cairn/agents', '.claude/agents'];
/** Claude Code keeps hooks inside its settings file. */
const settingsWithHooks = ['.claude/settings.json', '.claude/settings.local.json'];
const userHookFiles = ['.cursor/hooks.json'];
const userMcpFiles = ['.cursor/mcp.json'];
const userAgentFolders = ['.cursor/agents', '.claude/agents'];

export interface UnsupportedFilesInput {
  /** The workspace root. */
  root: string;
  /** The user's home folder (for `~/.cursor`, `~/.claude`). */
  userHome: string;
  /** `$CAIRN_HOME`. */
  cairnHome: string;
  /** Which layers were asked for explicitly in local.settingSources. */
  project: boolean;
  user: boolean;
  /** An MCP plugin is registered: its config files load, so they are not refused. */
  mcp: boolean;
}

export async function findUnsupportedConfigFiles(input: UnsupportedFilesInput): Promise<string[]> {
  const found: string[] = [];
  const withMcp = (hooks: string[], mcp: string[]) => (input.mcp ? hooks : [...hooks, ...mcp]);
  if (input.project) found.push(...(await layerFiles(input.root, withMcp(projectHookFiles, projectMcpFiles), projectAgentFolders, settingsWithHooks)));
  if (input.user) {
    found.push(...(await layerFiles(input.userHome, withMcp(userHookFiles, userMcpFiles), userAgentFolders, settingsWithHooks.slice(0, 1))));
    found.push(...(await layerFiles(input.cairnHome, withMcp(['hooks.json'], ['mcp.json']), ['agents'], [])));
  }
  return found;
}

/** Throw a ConfigurationError naming the files, when there are any. */
export async function assertNoUnsupportedConfigFiles(input: UnsupportedFilesInput): Promise<void> {
  const found = await findUnsupportedConfigFiles(input);
  if (found.length === 0) return;
  throw new ConfigurationError(
    `${found.join(', ')} declare${found.length === 1 ? 's' : ''} hooks, MCP servers or subagents, which Cairn does not load yet ` +
      '(MCP servers load when an MCP plugin is registered: mcpPlugin() of @cairn/tools-mcp, registered by @cairn/sdk). ' +
      'Rather than run without them, the agent refuses: remove or rename the file(s), or leave that layer out of local.settingSources.',
  );
}

async function layerFiles(root: string, files: string[], agentFolders: string[], hookSettings: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const file of files) if (await exists(join(root, file))) found.push(join(root, file));
  for (const folder of agentFolders) if (await hasMarkdown(join(root, folder))) found.push(join(root, folder));
  for (const file of hookSettings) if (await declaresHooks(join(root, file))) found.push(join(root, file));
  return found;
}

async function exists(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

async function hasMarkdown(folder: string): Promise<boolean> {
  try {
    return (await readdir(folder)).some((name) => name.endsWith('.md'));
  } catch {
    return false;
  }
}

async function declaresHooks(path: string): Promise<boolean> {
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as { hooks?: unknown };
    return typeof parsed.hooks === 'object' && parsed.hooks !== null && Object.keys(parsed.hooks).length > 0;
  } catch {
    return false;
  }
}
