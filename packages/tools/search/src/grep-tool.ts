import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { defineTool, ToolError, type ToolExecutionContext, type ToolResultContent } from '@cairn/core';
import { IgnoreRules, resolveWorkspacePath } from '@cairn/core/node';
import { searchWithFallback } from './grep-fallback.js';
import { type GrepInput, grepInputJsonSchema, planGrep } from './grep-input.js';
import { type GrepEntry, renderEntries } from './grep-output.js';
import { runRipgrep } from './grep-ripgrep.js';
import { locateRipgrep } from './ripgrep-binary.js';

/** Defaults; each can be overridden in the tool's settings (`toolSettings.grep`). */
export const grepDefaults = {
  maxLines: 400,
  maxBytes: 40_000,
  maxColumns: 500,
  timeoutMs: 20_000,
  maxFiles: 50_000,
  maxFileBytes: 20 * 1024 * 1024,
};

function numberSetting(context: ToolExecutionContext, key: keyof typeof grepDefaults): number {
  const value = context.settings?.[key];
  return typeof value === 'number' && value > 0 ? value : grepDefaults[key];
}

/** Which engine runs: `settings.engine` = 'ripgrep' | 'builtin' (tests force one), default ripgrep when present. */
async function chooseEngine(context: ToolExecutionContext): Promise<{ rgPath?: string }> {
  const engine = context.settings?.engine;
  if (engine === 'builtin') return {};
  const custom = context.settings?.rgPath;
  const rgPath = typeof custom === 'string' ? custom : await locateRipgrep();
  if (!rgPath && engine === 'ripgrep') throw new ToolError('The ripgrep binary is not available on this machine; remove the engine setting to use the built-in engine.');
  return rgPath ? { rgPath } : {};
}

export async function runGrep(input: GrepInput, context: ToolExecutionContext): Promise<ToolResultContent> {
  context.signal.throwIfAborted();
  const plan = planGrep(input);
  const root = context.cwd;
  const resolved = await resolveWorkspacePath(root, input.path ?? '', { allowRoot: true });
  if (context.isPathDenied(resolved.absolute, 'read') || context.isPathDenied(resolved.absolute, 'grep')) {
    throw new ToolError(`Searching ${input.path} is denied by the permission rules. Do not try to reach it another way.`);
  }
  const targetStats = await stat(resolved.absolute).catch(() => undefined);
  if (!targetStats) throw new ToolError(`${input.path} does not exist. Check the path with list_dir or glob_file_search.`);
  // A FIFO, socket or device would block the search (or never end): only files and folders.
  if (!targetStats.isFile() && !targetStats.isDirectory()) {
    throw new ToolError(`${input.path} is not a regular file or folder (a pipe, socket or device), so it cannot be searched.`);
  }
  const target = resolved.relative;
  const rules = await IgnoreRules.load(root);
  const limits = { maxLines: numberSetting(context, 'maxLines'), maxBytes: numberSetting(context, 'maxBytes') };
  const maxColumns = numberSetting(context, 'maxColumns');
  const timeoutMs = numberSetting(context, 'timeoutMs');
  const isDenied = (relativePath: string) => {
    const absolute = join(root, relativePath);
    return context.isPathDenied(absolute, 'read') || context.isPathDenied(absolute, 'grep');
  };
  const { rgPath } = await chooseEngine(context);
  let entries: GrepEntry[];
  let stoppedBy: string | undefined;
  if (rgPath) {
    const result = await runRipgrep({ rgPath, root, target, plan, maxColumns, maxOutputBytes: limits.maxBytes * 8, timeoutMs, signal: context.signal });
    stoppedBy = result.stoppedBy;
    // rg does not know .cairnignore / .cursorignore or the permission rules: filter what it printed.
    // A file given explicitly is searched even when ignored, as rg does.
    const verdicts = new Map<string, boolean>();
    entries = [];
    for (const entry of result.entries) {
      if (entry.type === 'separator') {
        entries.push(entry);
        continue;
      }
      let allowed = verdicts.get(entry.path);
      if (allowed === undefined) {
        allowed = !isDenied(entry.path) && (targetStats.isFile() || !(await ignoredByRules(rules, entry.path)));
        verdicts.set(entry.path, allowed);
      }
      if (allowed) entries.push(entry);
    }
  } else {
    const result = await searchWithFallback({
      root, target, targetIsFile: targetStats.isFile(), plan, rules, maxColumns,
      maxEntries: limits.maxLines * 4, maxFiles: numberSetting(context, 'maxFiles'), maxFileBytes: numberSetting(context, 'maxFileBytes'),
      deadline: Date.now() + timeoutMs, signal: context.signal, isAllowed: (path) => !isDenied(path),
    });
    entries = result.entries;
    stoppedBy = result.stoppedBy;
  }
  context.signal.throwIfAborted();
  const rendered = renderEntries(entries, { ...limits, ...(plan.headLimit ? { headLimit: plan.headLimit } : {}) });
  const notices: string[] = [];
  if (stoppedBy === 'timeout') notices.push(`[Search stopped after ${timeoutMs} ms; results are partial. Narrow it with path, glob or type, or use a simpler pattern.]`);
  else if (rendered.stoppedBy === 'cap' || stoppedBy) notices.push(`[Output truncated after ${rendered.lines} results. Narrow the search with path, glob or type, use output_mode files_with_matches, or set head_limit.]`);
  else if (rendered.stoppedBy === 'head_limit') notices.push(`[Showing the first ${rendered.lines} results (head_limit); more exist.]`);
  const body = rendered.lines === 0 ? 'No matches found.' : rendered.text;
  const text = notices.length > 0 ? `${body}\n${notices.join('\n')}` : body;
  return { content: [{ type: 'text', text }], ...(notices.length > 0 && rendered.stoppedBy !== 'head_limit' ? { truncated: true } : {}) };
}

async function ignoredByRules(rules: IgnoreRules, relativePath: string): Promise<boolean> {
  const segments = relativePath.split('/');
  for (let depth = 0; depth < segments.length; depth++) await rules.loadDirectory(segments.slice(0, depth).join('/'));
  return rules.ignores(relativePath, false);
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
