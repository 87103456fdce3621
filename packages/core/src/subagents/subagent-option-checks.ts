import type { Registry } from '../registry/registry.js';
import { ConfigurationError } from '../spec/errors/index.js';
import type { AgentOptions } from '../runtime/agent-options.js';
import { normalizeModelSelection, resolveModelSelection } from '../runtime/model-selection.js';
import { assertAgentDefinitions } from './definitions.js';

/**
 * `agents` at Agent.create / Agent.resume: well-formed, each model known to the registry, and a
 * task tool to start them with (otherwise the definitions would be accepted and never used).
 */
export function assertSubagentOptions(registry: Registry, options: Partial<AgentOptions>, where: string): void {
  const agents = options.agents;
  if (agents === undefined) return;
  assertAgentDefinitions(agents, where);
  if (Object.keys(agents).length > 0 && !registry.tools().some((tool) => tool.id === 'task' && tool.category === 'task')) {
    throw new ConfigurationError(`${where}: agents needs the task tool to start subagents, and no tool pack registers it. Register subagentsPlugin of @cairn/core/node (@cairn/sdk does), or remove agents.`);
  }
  for (const [name, definition] of Object.entries(agents)) {
    if (definition.model === undefined || definition.model === 'inherit') continue;
    try {
      resolveModelSelection(registry, normalizeModelSelection(definition.model), options as AgentOptions);
    } catch (error) {
      throw new ConfigurationError(`${where}: agents.${name}.model cannot be used: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
