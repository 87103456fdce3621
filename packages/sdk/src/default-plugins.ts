import type { CairnPlugin } from '@cairn/core';
import { subagentsPlugin } from '@cairn/core/node';
import { anthropic } from '@cairn/provider-anthropic';
import { google } from '@cairn/provider-google';
import { ollama, openai } from '@cairn/provider-openai';
import { fsToolsPlugin } from '@cairn/tools-fs';
import { lintToolsPlugin } from '@cairn/tools-lints';
import { mcpPlugin } from '@cairn/tools-mcp';
import { notebookToolsPlugin } from '@cairn/tools-notebook';
import { planningToolsPlugin } from '@cairn/tools-planning';
import { searchToolsPlugin } from '@cairn/tools-search';
import { shellToolsPlugin } from '@cairn/tools-shell';
import { webToolsPlugin } from '@cairn/tools-web';
import { modesPlugin } from '@cairn/modes';
import { jsonlStorePlugin } from '@cairn/store-jsonl';
import { sqliteStorePlugin } from '@cairn/store-sqlite';

/**
 * Every provider, tool pack (the `task` tool of subagents too), mode and store that ships with Cairn (`local.store: 'sqlite' | 'jsonl' | 'memory'`),
 * and the MCP connector (`mcpServers`, MCP config files): it loads the MCP SDK only when a server starts.
 */
export const defaultPlugins: CairnPlugin[] = [
  { name: '@cairn/providers', providers: [openai, ollama, anthropic, google] },
  fsToolsPlugin,
  searchToolsPlugin,
  shellToolsPlugin,
  webToolsPlugin,
  planningToolsPlugin,
  subagentsPlugin,
  notebookToolsPlugin,
  lintToolsPlugin,
  mcpPlugin(),
  modesPlugin,
  sqliteStorePlugin,
  jsonlStorePlugin,
];
