import type { CairnPlugin, ToolDefinition } from '@cairn/core';
import { codebaseSearchTool } from './codebase-search-tool.js';
import { grepTool } from './grep-tool.js';

export const searchTools: ToolDefinition[] = [grepTool, codebaseSearchTool];

export const searchToolsPlugin: CairnPlugin = { name: '@cairn/tools-search', tools: searchTools };
