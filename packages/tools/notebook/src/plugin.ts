import type { CairnPlugin, ToolDefinition } from '@cairn/core';
import { editNotebookTool } from './edit-notebook-tool.js';

export const notebookTools: ToolDefinition[] = [editNotebookTool];

export const notebookToolsPlugin: CairnPlugin = { name: '@cairn/tools-notebook', tools: notebookTools };
