import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigurationError } from '../spec/errors/index.js';

/**
 * Configuration files of the de-facto formats (Cursor, Claude Code, Cairn's own) that declare MCP
 * servers, which Cairn loads only when an MCP plugin is registered. Hooks files load with the hooks
 * (hooks/hook-files.ts); subagent files (`agents/*.md`) with the task tool (subagents/agent-files.ts).
 * Files of a layer the agent was asked to load explicitly are refused rather than skipped: MCP
 * servers change what the agent can do, so running without them would be a quiet lie.
 */
const projectMcpFiles = ['.cursor/mcp.json', '.cairn/mcp.json', '.mcp.json'];
const userMcpFiles = ['.cursor/mcp.json'];

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
  if (input.mcp) return [];
  const found: string[] = [];
  if (input.project) found.push(...(await existing(input.root, projectMcpFiles)));
  if (input.user) {
    found.push(...(await existing(input.userHome, userMcpFiles)));
    found.push(...(await existing(input.cairnHome, ['mcp.json'])));
  }
  return found;
}

/** Throw a ConfigurationError naming the files, when there are any. */
export async function assertNoUnsupportedConfigFiles(input: UnsupportedFilesInput): Promise<void> {
  const found = await findUnsupportedConfigFiles(input);
  if (found.length === 0) return;
  throw new ConfigurationError(
    `${found.join(', ')} declare${found.length === 1 ? 's' : ''} MCP servers, which Cairn loads only when an MCP plugin is registered ` +
      '(mcpPlugin() of @cairn/tools-mcp, registered by @cairn/sdk). ' +
      'Rather than run without them, the agent refuses: remove or rename the file(s), or leave that layer out of local.settingSources.',
  );
}

async function existing(root: string, files: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const file of files) if (await exists(join(root, file))) found.push(join(root, file));
  return found;
}

async function exists(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
