import type { CairnPlugin, ToolDefinition } from '@cairn/core';
import { editDiagnosticsProvider } from './diagnostics/edit-diagnostics.js';
import { readLintsTool } from './read-lints-tool.js';

export const lintTools: ToolDefinition[] = [readLintsTool];

/** read_lints, and diagnostics after every edit from a warm language server (docs/diagnostics.md). */
export const lintToolsPlugin: CairnPlugin = { name: '@cairn/tools-lints', tools: lintTools, editFeedback: editDiagnosticsProvider };
