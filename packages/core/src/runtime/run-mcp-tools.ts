import type { McpRunServers } from '../spec/mcp/v1/index.js';
import type { ToolDefinition } from '../spec/tool/v1/index.js';

/** The tools of one run, as they are now: call it at every step (it is cheap when nothing changed). */
export type RunToolList = () => ToolDefinition[];

/**
 * The agent's tools (registry and custom tools) followed by the MCP tools of the run's servers,
 * re-read at every call so a server's `tools/list_changed` shows at the next step. While the MCP
 * list holds the same tools, the same array is returned: callers cache what they derive from it
 * by its identity (RunScope computes each mode's tools once per distinct list).
 */
export function runToolList(fixed: ToolDefinition[], mcp: McpRunServers | undefined): RunToolList {
  if (!mcp) return () => fixed;
  let lastMcp: readonly ToolDefinition[] = [];
  let combined = fixed;
  return () => {
    const current = mcp.tools();
    if (!sameTools(current, lastMcp)) {
      lastMcp = [...current];
      combined = [...fixed, ...current];
    }
    return combined;
  };
}

/** The same tool objects in the same order (a copy of the list counts as unchanged). */
function sameTools(a: readonly ToolDefinition[], b: readonly ToolDefinition[]): boolean {
  if (a === b) return true;
  return a.length === b.length && a.every((tool, index) => tool === b[index]);
}
