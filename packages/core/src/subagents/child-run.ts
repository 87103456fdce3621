import type { InteractionUpdate, NestedTaskUpdate } from '../spec/events/v1/index.js';
import type { AgentRecord } from '../spec/store/v1/index.js';
import type { ToolExecutionContext, ToolResultContent } from '../spec/tool/v1/index.js';
import type { ChildAgent, SubagentParent } from '../runtime/agent-subagents.js';
import { newId } from '../runtime/agent-runtime.js';
import { subagentModeFor } from '../runtime/mode-switch.js';
import { normalizeModelSelection, resolveModelSelection } from '../runtime/model-selection.js';
import type { RunResult } from '../runtime/run.js';
import type { SubagentUsage } from '../runtime/subagent-usage.js';
import { childAgentOptions, childTools } from './child-options.js';
import { systemReminder } from '../context/system-prompt.js';
import { subagentHooks } from '../hooks/subagent-hooks.js';
import type { SubagentType } from './definitions.js';
import { subagentMetadata } from './resumed-subagent.js';
import { type TaskHost, taskHostOf } from './task-host.js';
import type { TaskSlots } from './task-slots.js';
import type { TaskInput } from './task-tool.js';

export interface TaskCall {
  parent: SubagentParent;
  /** The child's depth (1 for a subagent of the top-level agent). */
  depth: number;
  types: readonly SubagentType[];
  input: TaskInput;
  context: ToolExecutionContext;
  slots: TaskSlots;
  /** Count a finished child's tokens (and the model that spent them) into the parent run's final usage. */
  addChildUsage(share: SubagentUsage): void;
}

/**
 * One `task` call: wait for a slot, start the subagent as a new agent under the parent run, pass
 * its updates up one level, and return its final message. Whatever goes wrong in the child is an
 * error result for the parent's model; only the parent's own cancel propagates.
 */
export async function runTask(call: TaskCall): Promise<ToolResultContent> {
  const { input, context } = call;
  const host = taskHostOf(context);
  const typeName = input.subagent_type?.trim() || 'generalPurpose';
  const type = call.types.find((candidate) => candidate.name === typeName);
  if (!type) return failure(`Unknown subagent_type "${typeName}". Available: ${call.types.map((entry) => entry.name).join(', ')}.`);
  const release = await call.slots.acquire(context.signal);
  try {
    return await runChild(call, host, type);
  } finally {
    release();
  }
}

async function runChild(call: TaskCall, host: TaskHost, type: SubagentType): Promise<ToolResultContent> {
  const { parent, context, input } = call;
  const registry = parent.runtime.registry;
  let child: ChildAgent | undefined;
  try {
    const model = type.model === undefined || type.model === 'inherit' ? parent.selection() : normalizeModelSelection(type.model);
    resolveModelSelection(registry, model, parent.options);
    const mode = subagentModeFor(host.mode, (id) => registry.mode(id));
    const agentId = newId('agent');
    const hooks = host.hooks && subagentHooks(host.hooks, { parentAgentId: parent.agentId, subagentId: agentId, subagentType: type.name });
    const options = { ...childAgentOptions(parent.options, type, model, mode, parent.cwd), ...(hooks ? { hooks } : {}) };
    const inheritedTools = childTools(host.offeredTools(), type);
    const prompt = await startPrompt(call, host, type, agentId);
    const now = Date.now();
    const record: AgentRecord = {
      agentId,
      cwd: parent.cwd,
      model,
      mode: mode.id,
      name: `${type.name}: ${input.description}`.slice(0, 200),
      createdAt: now,
      updatedAt: now,
      archived: false,
      checkpointRoot: null,
      lease: null,
      parentAgentId: parent.agentId,
      parentRunId: context.runId,
      parentToolCallId: context.toolCallId,
      subagentType: type.name,
      metadata: subagentMetadata(call.depth, inheritedTools, options.systemPrompt?.append ?? ''),
    };
    child = await parent.spawn(record, options, { depth: call.depth, inheritedTools });
    await host.publish({ type: 'task', status: 'running', text: input.description, call_id: context.toolCallId, subagent_type: type.name });
    const run = await child.send(prompt, { signal: context.signal, onDelta: async ({ update }) => forwardUpdate(context, update) });
    const result = await run.wait();
    // A cancelled parent has ended already: its children's tokens stay on their own runs.
    if (result.usage && !context.signal.aborted) {
      call.addChildUsage({ model: (await parent.store.runs.get(result.id))?.model ?? model.id, usage: result.usage });
      await host.addUsage(result.usage);
    }
    await host.publish({ type: 'task', status: result.status, text: input.description, call_id: context.toolCallId, subagent_type: type.name });
    return resultOf(result, type, child.agentId);
  } catch (error) {
    if (context.signal.aborted) throw error;
    return failure(`The ${type.name} subagent could not run: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await child?.close().catch(() => undefined);
  }
}

/** The task's prompt, with what the parent's `subagentStart` hooks add to it. */
async function startPrompt(call: TaskCall, host: TaskHost, type: SubagentType, subagentId: string): Promise<string> {
  const { input, context, parent } = call;
  if (!host.hooks?.has('subagentStart')) return input.prompt;
  const base = { agentId: parent.agentId, runId: context.runId, cwd: parent.cwd, mode: host.mode.id };
  const started = await host.hooks.subagentStart({ ...base, subagentId, subagentType: type.name, prompt: input.prompt }, { signal: context.signal });
  return started?.additionalContext ? `${input.prompt}\n\n${systemReminder(started.additionalContext)}` : input.prompt;
}

const nestedTypes = new Set<string>(['text-delta', 'tool-call-started', 'tool-call-completed', 'thinking-delta', 'thinking-completed', 'partial-tool-call', 'step-started', 'step-completed']);

/** One level of the child's updates, under the parent's task call (the reference's NestedTaskUpdate). */
function forwardUpdate(context: ToolExecutionContext, update: InteractionUpdate): void {
  if (!nestedTypes.has(update.type)) return;
  context.emit({ type: 'tool-call-delta', callId: context.toolCallId, modelCallId: context.toolCallId, taskUpdate: update as NestedTaskUpdate });
}

function resultOf(result: RunResult, type: SubagentType, agentId: string): ToolResultContent {
  const structuredContent = { subagentType: type.name, agentId, runId: result.id, status: result.status };
  if (result.status === 'finished') {
    return { content: [{ type: 'text', text: result.result?.trim() || `The ${type.name} subagent finished without a final message.` }], structuredContent };
  }
  const why = result.error?.message ?? (result.status === 'cancelled' ? 'it was cancelled' : 'it failed');
  return { content: [{ type: 'text', text: `The ${type.name} subagent ended with status ${result.status}: ${why}` }], isError: true, structuredContent };
}

function failure(text: string): ToolResultContent {
  return { content: [{ type: 'text', text }], isError: true };
}
