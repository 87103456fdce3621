import type { CairnPlugin } from '@cairn/core';
import { runTerminalCmdTool } from './run-terminal-cmd.js';

/** Contributes `run_terminal_cmd` (id `shell`). */
export const shellToolsPlugin: CairnPlugin = { name: '@cairn/tools-shell', tools: [runTerminalCmdTool] };
