import type { CairnPlugin, ToolDefinition } from '@cairn/core';
import { readLintsTool } from './read-lints-tool.js';

export const lintTools: ToolDefinition[] = [readLintsTool];

export const lintToolsPlugin: CairnPlugin = { name: '@cairn/tools-lints', tools: lintTools };
