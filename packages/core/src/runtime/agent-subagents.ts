import type { InteractionUpdate, TokenUsage } from '../spec/events/v1/index.js';
import type { ModelSelection } from '../spec/provider/v1/index.js';
import type { AgentRecord, AgentStore } from '../spec/store/v1/index.js';
import type { ToolDefinition, ToolExecutionContext } from '../spec/tool/v1/index.js';
import { builtInSubagentTypes, inlineSubagentTypes, mergeSubagentTypes, type SubagentType } from '../subagents/definitions.js';
import { type TaskInput, taskToolDescription } from '../subagents/task-tool.js';
import { TaskSlots } from '../subagents/task-slots.js';
import type { AgentOptions } from './agent-options.js';
import type { AgentRuntime } from './agent-runtime.js';
import type { Run } from './run.js';
import type { SubagentUsage } from './subagent-usage.js';
import { addUsage } from './token-usage.js';

/** The deepest agent that may still start subagents: the top level (0) and its direct subagents (1). */
export const maxTaskDepth = 1;

/**
 * What makes an agent a subagent: how deep it is, and the tools its parent handed it. A subagent
 * resumed on its own (resumed-subagent.ts) has no live parent: its tools come from its options,
 * narrowed to the stored names by the `tools` allow-list.
 */
export interface SubagentLink {
  depth: number;
  inheritedTools?: ToolDefinition[];
}

/** A subagent as its parent drives it: one send, then close. */
export interface ChildAgent {
  readonly agentId: string;
  send(message: string, options: { signal: AbortSignal; onDelta: (event: { update: InteractionUpdate }) => Promise<void> }): Promise<Run>;
  close(): Promise<void>;
}

/** What the child-run code needs from the agent that calls `task`. */
export interface SubagentParent {
  agentId: string;
  cwd: string;
  options: AgentOptions;
  runtime: AgentRuntime;
  store: AgentStore;
  /** The model of the parent's runs now (what `model: "inherit"` means). */
  selection(): ModelSelection;
  /** Create and store a subagent (a new agent record, with its parent links). */
  spawn(record: AgentRecord, options: AgentOptions, link: SubagentLink): Promise<ChildAgent>;
}

/**
 * One agent's side of subagents: it binds the registry's `task` tool to this agent for each run
 * (with the subagent types of that moment) or drops it where nesting stops, and keeps the task
 * slots of its runs. A registry without the task tool costs nothing here: the list passes as is.
 */
export class AgentSubagents {
  private readonly slots = new Map<string, TaskSlots>();
  /** Tokens of finished subagents by parent run, added to the run's final usage (the run machine counts only its own turns). */
  private readonly childUsage = new Map<string, SubagentUsage[]>();

  constructor(
    private readonly parent: SubagentParent,
    readonly link?: SubagentLink,
  ) {}

  get depth(): number {
    return this.link?.depth ?? 0;
  }

  /** A run's tools: for a subagent the ones its parent handed over, the `task` tool bound (or removed at the depth limit). */
  async bind(tools: ToolDefinition[]): Promise<ToolDefinition[]> {
    const source = this.link?.inheritedTools ?? tools;
    const index = source.findIndex((tool) => tool.category === 'task' && tool.id === 'task');
    if (index < 0) return source;
    const list = [...source];
    if (this.depth > maxTaskDepth) {
      list.splice(index, 1);
      return list;
    }
    const types = await this.types();
    const tool = source[index] as ToolDefinition;
    list[index] = { ...tool, description: taskToolDescription(types), execute: (input: TaskInput, context: ToolExecutionContext) => this.execute(input, context, types) };
    return list;
  }

  /** Built-ins, then user files, project files and `agents` (later wins by name). */
  private async types(): Promise<SubagentType[]> {
    const { options, cwd } = this.parent;
    const env = options.env ?? process.env;
    const sources = options.local?.settingSources;
    const files = sources?.length ? await (await import('../subagents/agent-files.js')).loadAgentFiles({ cwd, settingSources: sources, env }) : { user: [], project: [] };
    return mergeSubagentTypes(builtInSubagentTypes(env), files.user, files.project, inlineSubagentTypes(options.agents));
  }

  private async execute(input: TaskInput, context: ToolExecutionContext, types: SubagentType[]) {
    const { runTask } = await import('../subagents/child-run.js');
    let slots = this.slots.get(context.runId);
    if (!slots) this.slots.set(context.runId, (slots = new TaskSlots()));
    try {
      const addChildUsage = (share: SubagentUsage) => this.childUsage.set(context.runId, [...(this.childUsage.get(context.runId) ?? []), share]);
      return await runTask({ parent: this.parent, depth: this.depth + 1, types, input, context, slots, addChildUsage });
    } finally {
      if (!slots.busy) this.slots.delete(context.runId);
    }
  }

  /**
   * A finished run's outcome with its subagents' tokens added, and those tokens by model (for the
   * run's cost, subagent-usage.ts). Taken once: the entry is dropped.
   */
  withChildUsage<Outcome extends { usage?: TokenUsage }>(runId: string, outcome: Outcome): { outcome: Outcome; subagentUsage: SubagentUsage[] } {
    const children = this.childUsage.get(runId) ?? [];
    this.childUsage.delete(runId);
    const usage = children.reduce<TokenUsage | undefined>((sum, child) => (sum ? addUsage(sum, child.usage) : child.usage), outcome.usage);
    return { outcome: usage ? { ...outcome, usage } : outcome, subagentUsage: children };
  }
}
