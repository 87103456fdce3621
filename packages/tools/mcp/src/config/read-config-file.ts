import { readFile } from 'node:fs/promises';
import { describeValue, isPlainObject } from './config-fields.js';

/** The servers of one config file, as written, in file order; or why the file could not be used. */
export type ConfigFileContent = { servers: Array<{ name: string; written: unknown }> } | { problem: string };

/**
 * Reads `{ "mcpServers": { name: config } }` (the format Cursor, Claude Code and Cairn share). A file
 * that does not exist has no servers; a file that cannot be read or parsed is a problem naming it, so
 * the agent says so and goes on without its servers.
 */
export async function readConfigFile(path: string): Promise<ConfigFileContent> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { servers: [] };
    return { problem: `${path} could not be read (${(error as Error).message}); its MCP servers are left out` };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { problem: `${path} is not valid JSON (${(error as Error).message}); its MCP servers are left out until it is fixed` };
  }
  return serversOf(path, parsed);
}

function serversOf(path: string, parsed: unknown): ConfigFileContent {
  const expected = 'write { "mcpServers": { "<name>": { "command": "..." } } }';
  if (!isPlainObject(parsed)) return { problem: `${path} must hold a JSON object, not ${describeValue(parsed)}; ${expected}` };
  const { mcpServers } = parsed;
  if (mcpServers === undefined) {
    // An empty object is an empty config; other keys without mcpServers are another tool's format (VS Code's "servers").
    if (Object.keys(parsed).length === 0) return { servers: [] };
    return { problem: `${path} has no "mcpServers" object (it has ${Object.keys(parsed).map((key) => `"${key}"`).join(', ')}); ${expected}` };
  }
  if (!isPlainObject(mcpServers)) return { problem: `${path}: "mcpServers" must be an object of servers by name, not ${describeValue(mcpServers)}; ${expected}` };
  return { servers: Object.entries(mcpServers).map(([name, written]) => ({ name, written })) };
}
