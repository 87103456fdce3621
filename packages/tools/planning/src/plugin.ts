import type { CairnPlugin, ToolDefinition } from '@cairn/core';
import { createPlanTool } from './create-plan-tool.js';
import { switchModeTool } from './switch-mode-tool.js';
import { todoWriteTool } from './todo-write-tool.js';

export const planningTools: ToolDefinition[] = [todoWriteTool, createPlanTool, switchModeTool];

export const planningToolsPlugin: CairnPlugin = { name: '@cairn/tools-planning', tools: planningTools };
