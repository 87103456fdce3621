import type { JSONObject } from '../spec/json.js';
import type { AgentRecord } from '../spec/store/v1/index.js';
import type { ToolDefinition } from '../spec/tool/v1/index.js';
import type { AgentOptions } from '../runtime/agent-options.js';
import type { SubagentLink } from '../runtime/agent-subagents.js';

const key = 'subagent';

/** What a subagent's record keeps so that resuming it on its own never gives it more than its parent did. */
interface StoredSubagent {
  depth: number;
  /** Names of the tools its parent handed it. */
  tools: string[];
  /** Its system prompt addition (the type's instructions). */
  instructions: string;
}

/** The record metadata of a new subagent (see resumedSubagent). */
export function subagentMetadata(depth: number, tools: readonly ToolDefinition[], instructions: string): JSONObject {
  const stored: StoredSubagent = { depth, tools: tools.map((tool) => tool.name), instructions };
  return { [key]: { ...stored } };
}

/**
 * `Agent.resume` of a subagent (after its parent's process died, say): it keeps its depth (a
 * subagent of a subagent still may not start subagents), only the tools its parent handed it (the
 * caller's `tools` can narrow them further, never widen them) and its instructions. Undefined
 * for an agent that is not a subagent.
 */
export function resumedSubagent(record: AgentRecord, options: AgentOptions): { link: SubagentLink; options: AgentOptions } | undefined {
  if (!record.parentAgentId) return undefined;
  const stored = storedSubagent(record.metadata);
  const handed = stored.tools;
  const tools = options.tools ? options.tools.filter((name) => handed.includes(name)) : handed;
  return {
    link: { depth: stored.depth },
    options: { ...options, tools, systemPrompt: options.systemPrompt ?? { append: stored.instructions } },
  };
}

/** A record without the entry (written by an older version) resumes with no tools at the deepest level: nothing more than it could have had. */
function storedSubagent(metadata: JSONObject | undefined): StoredSubagent {
  const value = metadata?.[key] as Partial<StoredSubagent> | undefined;
  const tools = Array.isArray(value?.tools) ? value.tools.filter((name): name is string => typeof name === 'string') : [];
  return {
    depth: typeof value?.depth === 'number' ? value.depth : Number.POSITIVE_INFINITY,
    tools,
    instructions: typeof value?.instructions === 'string' ? value.instructions : '',
  };
}
