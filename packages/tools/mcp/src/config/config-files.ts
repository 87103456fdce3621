import { join } from 'node:path';

/** One MCP config file an agent may read, with what its servers are (origin) and where relative `cwd`s start. */
export interface McpConfigFile {
  path: string;
  origin: 'project' | 'user';
  /** A relative stdio `cwd` in this file is resolved against this folder (the workspace, or the home). */
  base: string;
}

export interface ConfigFileLocations {
  cwd: string;
  homeDir: string;
  cairnHome: string;
  projectServers: boolean;
  userServers: boolean;
}

/**
 * The config files to read, highest precedence first: the project's `.cairn/mcp.json`, `.cursor/mcp.json`
 * and `.mcp.json` (Claude Code's), then the user's `$CAIRN_HOME/mcp.json` and `~/.cursor/mcp.json`. A
 * file that is both (the workspace is the home folder) counts once: as the project's when the project
 * layer was asked for (so it goes through the trust check), else as the user's.
 */
export function mcpConfigFiles(locations: ConfigFileLocations): McpConfigFile[] {
  const project: McpConfigFile[] = ['.cairn/mcp.json', '.cursor/mcp.json', '.mcp.json'].map((file) => ({
    path: join(locations.cwd, file),
    origin: 'project',
    base: locations.cwd,
  }));
  const user: McpConfigFile[] = [join(locations.cairnHome, 'mcp.json'), join(locations.homeDir, '.cursor', 'mcp.json')].map((path) => ({
    path,
    origin: 'user',
    base: locations.homeDir,
  }));
  const chosenProject = locations.projectServers ? project : [];
  const projectPaths = new Set(chosenProject.map((file) => file.path));
  return [...chosenProject, ...(locations.userServers ? user.filter((file) => !projectPaths.has(file.path)) : [])];
}
