import { ConfigurationError } from '../spec/errors/index.js';
import type { ModelSelection } from '../spec/provider/v1/index.js';
import type { ToolName } from '../spec/tool/v1/index.js';
import type { AgentDefinition } from '../runtime/agent-options.js';

/** One subagent type the `task` tool can start. */
export interface SubagentType {
  name: string;
  description: string;
  /** Instructions appended to the subagent's system prompt. */
  prompt: string;
  /** Undefined or `inherit`: the parent's model of the run. */
  model?: 'inherit' | string | ModelSelection;
  /** Only these tools (ids, names or groups), within what the parent offers. */
  tools?: ToolName[];
  /** Only read-only tools (explore). */
  readOnly?: boolean;
  /** Where the type comes from, for error messages and docs: `built-in`, `agents`, or a file path. */
  source: string;
}

/** The env variable that names a faster model for `explore` subagents (e.g. `openai/gpt-5-mini`). */
export const exploreModelVariable = 'CAIRN_EXPLORE_MODEL';

/** The two types every agent with the `task` tool has; `agents` or agent files of the same name replace them. */
export function builtInSubagentTypes(env: Record<string, string | undefined>): SubagentType[] {
  const exploreModel = env[exploreModelVariable]?.trim();
  return [
    {
      name: 'generalPurpose',
      description: 'A general-purpose agent with the same tools as you, for a self-contained piece of work (research, a change across several files).',
      prompt: 'Complete the task you are given with the tools you have, then answer with a concise report of what you found or changed.',
      source: 'built-in',
    },
    {
      name: 'explore',
      description: 'A fast, read-only agent that searches and reads the codebase to answer a question; it cannot change anything.',
      prompt: 'Explore the codebase read-only to answer the question you are given. Search broadly, read what matters, and answer with the facts and the file paths that support them.',
      readOnly: true,
      source: 'built-in',
      ...(exploreModel ? { model: exploreModel } : {}),
    },
  ];
}

/** Subagent type names: letters, digits, `.`, `_`, `-` (a file's name or front matter `name`). */
const namePattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Check `agents` of Agent.create / Agent.resume: every entry needs a description and a prompt. */
export function assertAgentDefinitions(agents: unknown, where: string): void {
  if (agents === undefined) return;
  if (typeof agents !== 'object' || agents === null || Array.isArray(agents)) {
    throw new ConfigurationError(`${where}: agents must be an object mapping each subagent name to { description, prompt, model?, tools? }.`);
  }
  for (const [name, definition] of Object.entries(agents as Record<string, unknown>)) {
    if (!namePattern.test(name)) throw new ConfigurationError(`${where}: subagent name "${name}" is not valid: use 1-64 letters, digits, ".", "_" or "-".`);
    const entry = definition as Partial<AgentDefinition> | null;
    if (typeof entry !== 'object' || entry === null) throw new ConfigurationError(`${where}: agents.${name} must be an object { description, prompt, model?, tools? }.`);
    if (typeof entry.description !== 'string' || !entry.description.trim()) throw new ConfigurationError(`${where}: agents.${name} needs a description (the model reads it to choose the subagent).`);
    if (typeof entry.prompt !== 'string' || !entry.prompt.trim()) throw new ConfigurationError(`${where}: agents.${name} needs a prompt (the subagent's instructions).`);
    if (entry.tools !== undefined && !(Array.isArray(entry.tools) && entry.tools.every((tool) => typeof tool === 'string'))) {
      throw new ConfigurationError(`${where}: agents.${name}.tools must be an array of tool names, for example ["read", "grep"].`);
    }
    const model = entry.model as unknown;
    if (model !== undefined && typeof model !== 'string' && (typeof model !== 'object' || model === null || typeof (model as ModelSelection).id !== 'string')) {
      throw new ConfigurationError(`${where}: agents.${name}.model must be "inherit", a model id such as "openai/gpt-5", or { id }.`);
    }
  }
}

/** `agents` as subagent types. */
export function inlineSubagentTypes(agents: Record<string, AgentDefinition> | undefined): SubagentType[] {
  return Object.entries(agents ?? {}).map(([name, definition]) => ({
    name,
    description: definition.description.trim(),
    prompt: definition.prompt.trim(),
    ...(definition.model !== undefined ? { model: definition.model } : {}),
    ...(definition.tools !== undefined ? { tools: definition.tools } : {}),
    source: 'agents',
  }));
}

/** Later lists win by name: built-ins, then user files, project files, `agents` (the reference's precedence). */
export function mergeSubagentTypes(...layers: SubagentType[][]): SubagentType[] {
  const byName = new Map<string, SubagentType>();
  for (const layer of layers) for (const type of layer) byName.set(type.name, type);
  return [...byName.values()];
}
