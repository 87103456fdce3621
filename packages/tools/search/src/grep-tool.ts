import { defineTool, lazyImplementation, type ToolExecutionContext, type ToolResultContent } from '@cairn/core';
import { type GrepInput, grepInputJsonSchema } from './grep-input.js';

/** Defaults; each can be overridden in the tool's settings (`toolSettings.grep`). */
export const grepDefaults = {
  maxLines: 400,
  maxBytes: 40_000,
  maxColumns: 500,
  timeoutMs: 20_000,
  maxFiles: 50_000,
  maxFileBytes: 20 * 1024 * 1024,
};

// The search engines (ripgrep's process and jail, the built-in matcher with picomatch and its regex
// sandbox) load at the first search.
const implementation = lazyImplementation(() => import('./grep-execute.js'));

/** One grep search, as the tool runs it (for callers that search without the registry). */
export async function runGrep(input: GrepInput, context: ToolExecutionContext): Promise<ToolResultContent> {
  return (await implementation()).runGrep(input, context);
}

export const grepTool = defineTool<GrepInput>({
  id: 'grep',
  name: 'grep',
  description:
    'Search file contents with a regular expression (ripgrep syntax and output). Prefer this over shell grep/rg. ' +
    'Output modes: content (default, "path:line:text" with optional -A/-B/-C context), files_with_matches, count. ' +
    'Filter with path, glob ("*.ts") or type ("py"); -i for case-insensitive; multiline to match across lines. ' +
    'Respects .gitignore/.cairnignore/.cursorignore; output is capped, use head_limit or a narrower path for big result sets.',
  inputSchema: { jsonSchema: grepInputJsonSchema as never },
  readOnly: true,
  category: 'search',
  timeoutMs: 60_000,
  paths: (input) => [input.path ?? '.'],
  execute: runGrep,
});
