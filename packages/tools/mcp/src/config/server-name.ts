/**
 * Why a server name cannot be used, or undefined. Names are the keys of `mcpServers`; `__` is refused
 * because it separates the server's name from the tool's in the model-facing tool names, so a name
 * holding it could make two servers' tools look alike.
 */
export function serverNameProblem(name: unknown): string | undefined {
  if (typeof name !== 'string' || name.trim() === '') {
    return 'MCP server names must not be empty: give each server in mcpServers a name such as "github"';
  }
  if (name.includes('__')) {
    const suggestion = name.replace(/_{2,}/g, '_');
    return (
      `MCP server "${name}": the name must not contain "__" (two underscores separate the server's name from ` +
      `the tool's in tool names); write e.g. "${suggestion}" or use "-"`
    );
  }
  return undefined;
}
