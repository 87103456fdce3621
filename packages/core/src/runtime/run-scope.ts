import type { RunModes } from '../machine/run-machine-types.js';
import type { LanguageModelV1FunctionTool } from '../spec/language-model/v1/index.js';
import type { ModeDefinition } from '../spec/mode/v1/index.js';
import type { FileChange, ToolDefinition } from '../spec/tool/v1/index.js';
import { toolInputJsonSchema } from '../tools/tool-schema.js';
import { ContextTokenMeter } from './compaction-tokens.js';
import { fallbackAgentMode } from './default-modes.js';
import { KeyedLock } from './keyed-lock.js';
import { modeRights } from './mode-rights.js';
import type { RunPlan } from './run-plan.js';
import { RunPublisher } from './run-publisher.js';
import { offeredTools, type ToolAvailability, toolAvailability } from './tool-set.js';

/** The tools of one mode in this run: what the model is offered, and what each call may do. */
export interface ModeTools {
  specs: LanguageModelV1FunctionTool[];
  availability: Map<string, ToolAvailability>;
}

/**
 * What the actors of one run share that is not run state: the plan, where events go, caches
 * (the tools of each mode are computed once per tool list, not per step), and bookkeeping of files
 * the tools touched (for glob rules and mode reminders). The run's state lives in the machine.
 * `plan.tools` may change between steps (MCP servers' `tools/list_changed`, see run-mcp-tools.ts):
 * it is read each time, and a new array is a new list.
 */
export class RunScope {
  readonly publisher: RunPublisher;
  readonly meter = new ContextTokenMeter();
  readonly writeLock = new KeyedLock();
  /** Aborted when the run ends however it ends: background work a tool started never outlives its run. */
  readonly lifetime = new AbortController();
  /**
   * What tools get (cancel, or the run's end), not a state's signal: background work they start
   * (shell jobs) lives across steps and ends with the run. One per run, not one per step.
   */
  readonly toolSignal: AbortSignal;
  readonly touchedPaths = new Set<string>();
  readonly editedPaths = new Set<string>();
  /** The file changes each tool call recorded, by call id, for the edit feedback after it. */
  readonly changesOfCall = new Map<string, FileChange[]>();
  readonly calledTools: string[] = [];
  readonly modes: RunModes;
  /** When each step's model call started: step-completed reports the whole step, tools included. */
  readonly stepStartedAt = new Map<number, number>();
  /** The tool list the caches below were computed from. */
  private toolList: ToolDefinition[];
  private toolIds: Map<string, string>;
  private readonly modeTools = new Map<string, ModeTools>();

  constructor(readonly plan: RunPlan) {
    this.publisher = new RunPublisher({ agentId: plan.agentId, runId: plan.runId }, plan.log, plan.onDelta, plan.watchesUpdates === true);
    this.toolSignal = AbortSignal.any([plan.signal, this.lifetime.signal]);
    this.toolList = plan.tools;
    this.toolIds = toolIdsOf(this.toolList);
    this.modes = {
      resolve: (id) => plan.resolveMode(id),
      rightsOf: (mode) => modeRights(mode, { tools: plan.tools, allow: plan.allow, deny: plan.deny, cwd: plan.cwd, settings: plan.toolSettings, sandboxFor: plan.sandboxFor }),
    };
  }

  /** A mode by id; an unknown id (a mode unregistered since) runs as the built-in agent mode. */
  mode(id: string): ModeDefinition {
    return this.plan.resolveMode(id) ?? fallbackAgentMode;
  }

  toolIdOf = (toolName: string): string => {
    this.syncToolList();
    return this.toolIds.get(toolName) ?? toolName;
  };

  toolsFor(modeId: string): ModeTools {
    this.syncToolList();
    let tools = this.modeTools.get(modeId);
    if (!tools) this.modeTools.set(modeId, (tools = this.computeTools(this.mode(modeId), this.toolList)));
    return tools;
  }

  /** A changed tool list (an MCP server's list changed) drops what was derived from the old one. */
  private syncToolList(): void {
    const current = this.plan.tools;
    if (current === this.toolList) return;
    this.toolList = current;
    this.toolIds = toolIdsOf(current);
    this.modeTools.clear();
  }

  private computeTools(mode: ModeDefinition, tools: ToolDefinition[]): ModeTools {
    const { plan } = this;
    const options = { allow: plan.allow, deny: plan.deny, mode, cwd: plan.cwd, settings: plan.toolSettings };
    const specs = offeredTools(tools, { ...options, stableToolList: plan.stableToolList === true }).map((tool) => ({
      type: 'function' as const,
      name: tool.name,
      description: tool.description,
      inputSchema: toolInputJsonSchema(tool.inputSchema),
    }));
    return { specs, availability: new Map(toolAvailability(tools, options).map((entry) => [entry.tool.name, entry])) };
  }
}

function toolIdsOf(tools: ToolDefinition[]): Map<string, string> {
  return new Map(tools.map((tool) => [tool.name, tool.id]));
}
