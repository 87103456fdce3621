import { ConfigurationError } from '../spec/errors/index.js';
import type { TokenUsage } from '../spec/events/v1/index.js';
import type { ModeDefinition } from '../spec/mode/v1/index.js';
import type { ToolDefinition, ToolExecutionContext } from '../spec/tool/v1/index.js';
import type { SDKMessageBody } from '../runtime/run-publisher.js';
import type { RunScope } from '../runtime/run-scope.js';
import { type RunHooks, runHooksOf } from '../hooks/run-hooks.js';

/** Where a `task` call finds its parent run, on the call's context (only `task` calls get it). */
const taskHostKey = Symbol.for('cairn.taskHost');

/** What a `task` call needs from the parent run that the public tool context does not carry. */
export interface TaskHost {
  /** The mode the parent run is in when it calls `task`. */
  mode: ModeDefinition;
  /** The tools the parent offers in that mode (registry, custom and MCP tools): a child gets no others. */
  offeredTools(): ToolDefinition[];
  /** Write an SDK message (`task` progress) to the parent run's stream. */
  publish(body: SDKMessageBody): Promise<void>;
  /** Add a finished child's tokens to the parent run (its `usage` message and `turn-ended` update). */
  addUsage(usage: TokenUsage): Promise<void>;
  /** The parent run's hooks (docs/hooks.md), which its subagents' runs use too. */
  hooks?: RunHooks;
}

/** The context entry run-tool-context.ts adds for a call of a `task` tool. */
export function taskHostEntry(scope: RunScope, mode: ModeDefinition): { [taskHostKey]: TaskHost } {
  const { publisher } = scope;
  const hooks = runHooksOf(scope.plan.hooks);
  return {
    [taskHostKey]: {
      mode,
      offeredTools: () => [...scope.toolsFor(mode.id).availability.values()].filter((entry) => entry.offered).map((entry) => entry.tool),
      publish: (body) => publisher.deliver([publisher.message(body)]),
      addUsage: (usage) => publisher.deliver([publisher.message({ type: 'usage', usage }), { kind: 'update', update: { type: 'turn-ended', usage } }]),
      ...(hooks ? { hooks } : {}),
    },
  };
}

export function taskHostOf(context: ToolExecutionContext): TaskHost {
  const host = (context as unknown as Record<symbol, TaskHost | undefined>)[taskHostKey];
  if (!host) throw new ConfigurationError('The task tool starts subagents only inside a Cairn agent run; it cannot be called on its own.');
  return host;
}
