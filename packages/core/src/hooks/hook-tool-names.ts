/**
 * Cairn's tools under the names hook scripts written for Claude Code expect (docs/hooks.md has the
 * table). MCP tools keep their `mcp__server__tool` name, which is Claude Code's spelling too; a tool
 * with no counterpart keeps its model-facing name.
 */
const claudeToolNames: Record<string, string> = {
  shell: 'Bash',
  read: 'Read',
  write: 'Write',
  edit: 'Edit',
  delete: 'Delete',
  ls: 'LS',
  glob: 'Glob',
  grep: 'Grep',
  webFetch: 'WebFetch',
  webSearch: 'WebSearch',
  task: 'Task',
  todo: 'TodoWrite',
  notebook: 'NotebookEdit',
};

/** Input fields Claude Code's tools spell differently: Cairn name -> Claude Code name, per tool id. */
const claudeInputFields: Record<string, Record<string, string>> = {
  read: { path: 'file_path' },
  write: { path: 'file_path', contents: 'content' },
  edit: { path: 'file_path' },
  delete: { path: 'file_path' },
  notebook: { path: 'notebook_path' },
  shell: { timeout_ms: 'timeout' },
};

export function claudeToolName(toolId: string, toolName: string): string {
  return claudeToolNames[toolId] ?? toolName;
}

/** A call's arguments as a Claude Code script reads them (`tool_input.file_path`, `tool_input.command`). */
export function toClaudeInput(toolId: string, input: Record<string, unknown>): Record<string, unknown> {
  return renameFields(input, claudeInputFields[toolId]);
}

/** `updatedInput` of a Claude Code script, back in the Cairn tool's field names. */
export function fromClaudeInput(toolId: string, input: Record<string, unknown>): Record<string, unknown> {
  const fields = claudeInputFields[toolId];
  return renameFields(input, fields && Object.fromEntries(Object.entries(fields).map(([cairn, claude]) => [claude, cairn])));
}

function renameFields(input: Record<string, unknown>, fields: Record<string, string> | undefined): Record<string, unknown> {
  if (!fields) return input;
  return Object.fromEntries(Object.entries(input).map(([key, value]) => [fields[key] ?? key, value]));
}

/** Which of Cursor's tool-specific events a tool belongs to. */
export function cursorToolKind(toolId: string, category: string): 'shell' | 'mcp' | 'read' | 'edit' | undefined {
  if (category === 'shell' || toolId === 'shell') return 'shell';
  if (category === 'mcp') return 'mcp';
  if (toolId === 'read') return 'read';
  if (toolId === 'edit' || toolId === 'write' || toolId === 'notebook') return 'edit';
  return undefined;
}

/** Claude Code's `permission_mode` for a Cairn mode. */
export function claudePermissionMode(mode: string | undefined): string {
  return mode === 'plan' ? 'plan' : 'default';
}
