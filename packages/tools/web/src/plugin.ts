import type { CairnPlugin, ToolDefinition } from '@cairn/core';
import { webFetchTool } from './web-fetch-tool.js';
import { webSearchTool } from './web-search-tool.js';

export const webTools: ToolDefinition[] = [webFetchTool, webSearchTool];

/** Both tools; web_search stays hidden until `toolSettings.webSearch.backend` is set. */
export const webToolsPlugin: CairnPlugin = { name: '@cairn/tools-web', tools: webTools };
