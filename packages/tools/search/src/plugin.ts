import type { CairnPlugin, ToolDefinition } from '@cairn/core';
import { codebaseSearchTool, notifyFilesChanged } from './codebase-search-tool.js';
import { grepTool } from './grep-tool.js';

export const searchTools: ToolDefinition[] = [grepTool, codebaseSearchTool];

/** The search tools; files the agent's tools change are re-indexed at once, before the next search. */
export const searchToolsPlugin: CairnPlugin = {
  name: '@cairn/tools-search',
  tools: searchTools,
  onFileChange: (change) => notifyFilesChanged(change.cwd, [change.path]),
};
