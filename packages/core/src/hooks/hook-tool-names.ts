import { resolve } from 'node:path';

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

/**
 * A result as Claude Code's `tool_response` has it for the tools scripts inspect most: `Bash` as
 * `{ stdout, stderr, interrupted, isImage }` (Cairn's shell merges the two streams: all of it is in
 * `stdout`), `Write`/`Edit` as `{ filePath, success }`, `Read` as `{ type, file: { filePath, content } }`.
 * Other tools get the text the model reads.
 */
export function toClaudeResponse(toolId: string, call: { cwd: string; input: Record<string, unknown>; output: string; structuredContent?: unknown }): unknown {
  const structured = (call.structuredContent ?? {}) as Record<string, unknown>;
  const filePath = typeof call.input.path === 'string' ? resolve(call.cwd, call.input.path) : undefined;
  switch (toolId) {
    case 'shell':
      return { stdout: typeof structured.output === 'string' ? structured.output : call.output, stderr: '', interrupted: structured.timedOut === true, isImage: false };
    case 'write':
    case 'edit':
    case 'notebook':
      return { filePath, success: true };
    case 'read':
      return { type: 'text', file: { filePath, content: call.output } };
    default:
      return call.output;
  }
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
