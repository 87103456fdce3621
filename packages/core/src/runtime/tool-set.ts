import { analyzeShellCommand } from '../permissions/shell-analysis.js';
import type { ModeDefinition } from '../spec/mode/v1/index.js';
import type { CustomTool, ToolDefinition, ToolName } from '../spec/tool/v1/index.js';
import { validateCustomTools } from './custom-tools.js';

/**
 * Custom tools from `local.customTools`: category `custom`, in the `mcp` group for rules. The
 * agent checked them when it was created (or when a send replaced them): see validateCustomTools.
 */
export function customToolsToDefinitions(customTools: Record<string, CustomTool> | undefined): ToolDefinition[] {
  return validateCustomTools(customTools);
}

/** True when a name from `tools`/`disallowedTools`/policies refers to this tool (id, name or group). */
export function toolMatches(tool: ToolDefinition, name: ToolName): boolean {
  if (name === tool.id || name === tool.name) return true;
  if (name === 'mcp') return tool.category === 'mcp' || tool.category === 'custom';
  return false;
}

export interface ToolAvailability {
  tool: ToolDefinition;
  offered: boolean;
  /** Why the tool is not offered (said to the model when it calls it anyway). */
  reason?: string;
  /** Not offered because of the mode's policy (as opposed to allow/deny lists or configuration). */
  modeRestricted?: boolean;
}

/**
 * Whether a tool may run in a read-only mode: its `readOnly` flag and nothing else, for every
 * category (a custom or MCP tool too; an MCP server's `readOnlyHint` becomes `readOnly` where the
 * tool is built). The permission engine's read-only check reads the same flag.
 */
export function isReadOnlyTool(tool: ToolDefinition): boolean {
  return tool.readOnly === true;
}

/**
 * Which tools a step offers: the allow-list and deny-list of the options (deny wins), then the mode's
 * policy. The same function decides at execution time, so a tool that is not offered is also refused.
 */
export function toolAvailability(
  tools: ToolDefinition[],
  options: { allow?: ToolName[]; deny?: ToolName[]; mode: ModeDefinition; sandboxAvailable?: boolean; cwd: string; settings: Record<string, unknown> },
): ToolAvailability[] {
  return tools.map((tool) => {
    if (options.deny?.some((name) => toolMatches(tool, name))) return { tool, offered: false, reason: 'it is in disallowedTools' };
    if (options.allow && !options.allow.some((name) => toolMatches(tool, name))) return { tool, offered: false, reason: 'it is not in the tools allow-list' };
    const policy = options.mode.toolPolicy;
    if (policy.deny?.some((name) => toolMatches(tool, name))) return { tool, offered: false, modeRestricted: true, reason: `the ${options.mode.id} mode does not allow it` };
    const explicitlyAllowed = policy.allow?.some((name) => toolMatches(tool, name)) ?? false;
    if (tool.category === 'mcp' || tool.category === 'custom') {
      if (policy.mcp === 'none') return { tool, offered: false, modeRestricted: true, reason: `the ${options.mode.id} mode offers no MCP or custom tools` };
      if (policy.mcp === 'readOnlyHint' && !isReadOnlyTool(tool) && !explicitlyAllowed) {
        return { tool, offered: false, modeRestricted: true, reason: `the ${options.mode.id} mode only offers read-only MCP and custom tools (readOnly: true; for MCP, the server's readOnlyHint)` };
      }
    } else if (tool.category === 'shell') {
      if (policy.shell === 'off') return { tool, offered: false, modeRestricted: true, reason: `the ${options.mode.id} mode does not allow the shell` };
      if (policy.shell?.startsWith('sandbox') && options.sandboxAvailable === false) {
        return { tool, offered: false, modeRestricted: true, reason: `the ${options.mode.id} mode runs the shell only inside an OS sandbox, and none is available` };
      }
    } else if (policy.readOnly && !isReadOnlyTool(tool) && !explicitlyAllowed) {
      return { tool, offered: false, modeRestricted: true, reason: `the ${options.mode.id} mode is read-only` };
    }
    if (tool.isEnabled && !tool.isEnabled({ cwd: options.cwd, settings: options.settings })) return { tool, offered: false, reason: 'it is not configured' };
    return { tool, offered: true };
  });
}

/**
 * The tools a step offers the model: the available ones, and with `stableToolList` also the ones
 * only the mode restricts (still refused when called), so the tool list stays byte-identical.
 */
export function offeredTools(
  tools: ToolDefinition[],
  options: { allow?: ToolName[]; deny?: ToolName[]; mode: ModeDefinition; cwd: string; settings: Record<string, unknown>; stableToolList?: boolean },
): ToolDefinition[] {
  return toolAvailability(tools, options)
    .filter((entry) => entry.offered || (options.stableToolList === true && entry.modeRestricted === true))
    .map((entry) => entry.tool);
}

/**
 * The execution-time check a read-only mode adds for the shell: a command is run only when the
 * shell analysis proves it read-only (`ls`, `cat`, `grep`, `git status`/`log`/`diff`, ...). Anything
 * else (`touch`, `git commit`, `npm install`, redirections, unparsable syntax) is refused before it
 * starts; the read-only OS sandbox the command then runs in is the second layer. Returns the refusal.
 */
export async function readOnlyModeRefusal(tool: ToolDefinition, input: unknown, mode: ModeDefinition): Promise<string | undefined> {
  if (!mode.toolPolicy.readOnly || tool.category !== 'shell') return undefined;
  let command: string | undefined;
  try {
    command = tool.ruleSubject?.(input);
  } catch {
    command = undefined;
  }
  if (!command) return `the ${mode.id} mode is read-only and this shell call names no command that can be checked`;
  const analysis = await analyzeShellCommand(command);
  if (analysis.readOnly) return undefined;
  const part = analysis.parts.find((entry) => !entry.readOnly);
  const why = analysis.unparsable
    ? 'it could not be analysed'
    : analysis.hasRedirectionToFile
      ? `it writes to ${analysis.redirectTargets.join(', ')}`
      : part
        ? `\`${part.text}\` may change files or state${part.reason ? ` (${part.reason})` : ''}`
        : 'it is not known to be read-only';
  return `the ${mode.id} mode is read-only, so the shell runs only commands that cannot change anything (ls, cat, grep, find, git status/log/diff/show, ...) and ${why}. Use a read-only command, or describe the change in your answer or plan instead`;
}
