import type { CairnPlugin, ToolDefinition } from '@cairn/core';
import { deleteFileTool } from './delete-file.js';
import { editFileTool } from './edit-file.js';
import { globFileSearchTool } from './glob-file-search.js';
import { listDirTool } from './list-dir.js';
import { readFileTool } from './read-file.js';
import { searchReplaceTool } from './search-replace.js';
import { writeTool } from './write-file.js';

export const fsTools: ToolDefinition[] = [readFileTool, writeTool, searchReplaceTool, editFileTool, deleteFileTool, listDirTool, globFileSearchTool];

export const fsToolsPlugin: CairnPlugin = { name: '@cairn/tools-fs', tools: fsTools };
