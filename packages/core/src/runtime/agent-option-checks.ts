import { resolveModelSelection } from './model-selection.js';
import { autoReviewSettings } from './auto-review-options.js';
import { ConfigurationError } from '../spec/errors/index.js';
import type { ModeDefinition } from '../spec/mode/v1/index.js';
import type { AgentStore } from '../spec/store/v1/index.js';
import type { ToolDefinition, ToolName } from '../spec/tool/v1/index.js';
import type { AgentOptions } from './agent-options.js';
import type { AgentRuntime } from './agent-runtime.js';
import { assertMcpLocalOptions, assertMcpServers } from './agent-mcp.js';
import { assertHookOptions } from '../hooks/hook-option-checks.js';
import { validateCustomTools } from './custom-tools.js';
import { registryFor } from './agent-registry.js';
import { assertLoadableConfigFiles } from './settings-for-send.js';
import { toolMatches } from './tool-set.js';
import { assertSubagentOptions } from '../subagents/subagent-option-checks.js';

/** Cloud-only options of the reference SDK: Cairn agents are local. */
const cloudOnly: Record<string, string> = {
  cloud: 'Cairn runs agents locally: cloud agents (cloud: { repos, ... }) are not supported. Pass local: { cwd } instead.',
};

/** The tool ids the reference SDK names that no Cairn tool pack provides yet. */
const documentedButMissing: Record<string, string> = {
  task: 'no task tool is registered (register subagentsPlugin of @cairn/core/node; @cairn/sdk does)',
};

/** Throw for options Cairn does not support, at Agent.create, Agent.resume and send: an error, never a run that quietly goes without them. */
export function assertSupportedOptions(options: object, where: string): void {
  const given = options as Record<string, unknown>;
  for (const [name, message] of Object.entries(cloudOnly)) {
    if (given[name] !== undefined) throw new ConfigurationError(`${where}: ${message}`);
  }
  if (where === 'send' && given.agents !== undefined) {
    throw new ConfigurationError('send: agents (named subagents) belong to the agent: pass them to Agent.create or Agent.resume, not to one send.');
  }
}

/** The local.settingSources values Cairn loads; the reference SDK's others name layers Cairn has no equivalent of. */
const knownSettingSources = new Set(['project', 'user', 'all']);

export function assertSettingSources(sources: readonly string[] | undefined, where: string): void {
  if (sources === undefined) return;
  if (!Array.isArray(sources)) throw new ConfigurationError(`${where}: local.settingSources must be an array such as ["project", "user"].`);
  for (const source of sources) {
    if (knownSettingSources.has(source)) continue;
    if (source === 'team' || source === 'mdm' || source === 'plugins') {
      throw new ConfigurationError(`${where}: local.settingSources "${source}" is not supported: Cairn has no ${source === 'plugins' ? 'plugin settings' : `${source} settings`} layer. Use "project", "user" or "all".`);
    }
    throw new ConfigurationError(`${where}: unknown local.settingSources entry "${String(source)}". Use "project", "user" or "all".`);
  }
}

/**
 * `tools` and `disallowedTools` name tool ids (`read`, `shell`), model-facing names (`read_file`),
 * the groups `shell` and `mcp`, or custom tool names. An unknown name is a typo that would silently
 * widen (disallowedTools) or empty (tools) the tool set, so it is refused; so is an allow-list entry
 * for a tool that exists but is not configured, which would otherwise vanish from the list. With
 * `mcpTools`, an `mcp__server__tool` name is accepted: MCP tools are known only once servers start.
 */
export function assertToolNames(options: { tools?: ToolName[]; disallowedTools?: ToolName[] }, tools: readonly ToolDefinition[], context: { where: string; cwd: string; settings: Record<string, unknown>; mcpTools?: boolean }): void {
  for (const field of ['tools', 'disallowedTools'] as const) {
    const names = options[field];
    if (names === undefined) continue;
    if (!Array.isArray(names)) throw new ConfigurationError(`${context.where}: ${field} must be an array of tool names, for example ["read", "grep"].`);
    for (const name of names) {
      const matching = tools.filter((tool) => toolMatches(tool, name));
      const isGroup = name === 'mcp' || name === 'shell';
      if (matching.length === 0 && context.mcpTools && typeof name === 'string' && name.startsWith('mcp__')) continue;
      if (matching.length === 0 && !isGroup) {
        const missing = documentedButMissing[name];
        if (missing && field === 'disallowedTools') continue;
        if (missing) throw new ConfigurationError(`${context.where}: tools names "${name}", but ${missing}. Remove it from tools.`);
        throw new ConfigurationError(`${context.where}: unknown tool "${String(name)}" in ${field}. Known tools: ${knownNames(tools)}; groups: shell, mcp.`);
      }
      if (field !== 'tools') continue;
      const unconfigured = matching.filter((tool) => tool.isEnabled && !tool.isEnabled({ cwd: context.cwd, settings: context.settings }));
      if (unconfigured.length > 0 && unconfigured.length === matching.length) {
        const tool = unconfigured[0] as ToolDefinition;
        throw new ConfigurationError(`${context.where}: tools names "${name}", but ${tool.name} is not configured${tool.setupHint ? `: ${tool.setupHint}` : ''}.`);
      }
    }
  }
}

function knownNames(tools: readonly ToolDefinition[]): string {
  return [...new Set(tools.map((tool) => (tool.id === tool.name ? tool.id : `${tool.id} (${tool.name})`)))].join(', ');
}

/** Checks every create/resume makes before an agent exists: nothing accepted here is silently ignored later. */
export async function checkAgentOptions(runtime: AgentRuntime, options: Partial<AgentOptions>, where: string, cwd: string): Promise<void> {
  assertSettingSources(options.local?.settingSources, where);
  const registry = registryFor(runtime, options);
  const review = autoReviewSettings(options.local?.autoReview, where);
  if (review?.model) resolveModelSelection(registry, review.model, options as AgentOptions);
  assertMcpServers(registry, options.mcpServers, where);
  assertMcpLocalOptions(options.local, where);
  assertHookOptions(options, where);
  const tools = [...registry.tools(), ...validateCustomTools(options.local?.customTools, registry.tools())];
  assertToolNames(options, tools, { where, cwd, settings: options.toolSettings ?? {}, mcpTools: registry.mcp() !== undefined });
  assertSubagentOptions(registry, options, where);
  await assertLoadableConfigFiles(options, cwd, registry.mcp() !== undefined);
}

/** A caller-chosen agent id: the reference SDK's `agentId` option; it must be new. */
export async function freshAgentId(store: AgentStore, agentId: string): Promise<string> {
  if (typeof agentId !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(agentId)) {
    throw new ConfigurationError(`agentId "${String(agentId)}" is not valid: use 1-128 letters, digits, ".", "_" or "-", starting with a letter or digit.`);
  }
  if (agentId.startsWith('bc-')) throw new ConfigurationError(`agentId "${agentId}" starts with "bc-", the prefix of cloud agents; choose another id.`);
  if (await store.agents.get(agentId)) throw new ConfigurationError(`An agent ${agentId} already exists. Continue it with Agent.resume("${agentId}"), or choose another agentId.`);
  return agentId;
}

/** The mode of that id in the runtime's registry (for `agent`, the fallback when none is registered), or a ConfigurationError listing the known ones. */
export function assertMode(runtime: AgentRuntime, id: string): ModeDefinition {
  const { registry } = runtime;
  const mode = registry.mode(id);
  if (!mode) {
    const known = registry.modes().map((entry) => entry.id).join(', ');
    throw new ConfigurationError(`Unknown mode "${id}". Known modes: ${known}. Register the mode's plugin (for plan, ask and debug: @cairn/modes).`);
  }
  return mode;
}
