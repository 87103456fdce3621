import type { InteractionUpdate, SDKSystemMessage, SDKTaskMessage } from '@cairn/core';
import type { CairnDataTypes } from './cairn-data.js';
import type { UIChunk, UIDataChunk } from './ui-chunks.js';

/** A `data-cairn-*` chunk. Its `id` makes a later chunk of the same name and id replace this one's data. */
export function dataChunk<Name extends keyof CairnDataTypes>(name: Name, id: string, data: CairnDataTypes[Name]): UIChunk {
  // The mapped union does not follow `Name` through the template literal; the fields are right by construction.
  return { type: `data-${name}`, id, data } as UIDataChunk;
}

/** A data chunk `useChat` hands to `onData` without keeping it in the message: live output the result repeats. */
export function transientChunk<Name extends keyof CairnDataTypes>(name: Name, data: CairnDataTypes[Name]): UIChunk {
  return { type: `data-${name}`, data, transient: true } as UIDataChunk;
}

/** The updates that become one data chunk each, with no state to keep between them. */
export type DataUpdate = Extract<
  InteractionUpdate,
  { type: 'mode-changed' | 'todos-updated' | 'plan-created' | 'retry' | 'warning' | 'sensitive-file-changed' | 'shell-output-delta' | 'tool-call-delta' | 'token-delta' }
>;

export function dataChunksOfUpdate(update: DataUpdate, offset: number): UIChunk[] {
  switch (update.type) {
    case 'mode-changed':
      return [dataChunk('cairn-mode', 'mode', { mode: update.to, from: update.from, source: update.source })];
    case 'todos-updated':
      return [dataChunk('cairn-todos', 'todos', { todos: update.todos })];
    case 'plan-created':
      return [dataChunk('cairn-plan', 'plan', { plan: update.plan })];
    case 'retry':
      return [dataChunk('cairn-retry', 'retry', { attempt: update.attempt, delayMs: update.delayMs, reason: update.reason })];
    case 'warning': {
      const { type: _type, ...warning } = update;
      return [dataChunk('cairn-warning', `warning-${offset}`, warning)];
    }
    case 'sensitive-file-changed': {
      const { type: _type, ...change } = update;
      return [dataChunk('cairn-sensitive-file', `${update.callId}:${update.path}`, change)];
    }
    case 'shell-output-delta':
      return [transientChunk('cairn-shell-output', update.event)];
    case 'tool-call-delta':
      return [transientChunk('cairn-task-update', { callId: update.callId, update: update.taskUpdate })];
    case 'token-delta':
      return [transientChunk('cairn-tokens', { tokens: update.tokens })];
  }
}

/** The run's opening facts (`system` init), and the mode it starts in. */
export function runStartChunks(message: SDKSystemMessage): UIChunk[] {
  const { model, tools, mode, cwd } = message;
  const run = dataChunk('cairn-run', 'run', { runId: message.run_id, agentId: message.agent_id, ...(model ? { model } : {}), ...(tools ? { tools } : {}), ...(mode ? { mode } : {}), ...(cwd ? { cwd } : {}) });
  return mode ? [run, dataChunk('cairn-mode', 'mode', { mode })] : [run];
}

export function taskChunk(message: SDKTaskMessage, offset: number): UIChunk {
  const callId = message.call_id ?? `task-${offset}`;
  return dataChunk('cairn-task', callId, {
    callId,
    ...(message.status ? { status: message.status } : {}),
    ...(message.text ? { text: message.text } : {}),
    ...(message.subagent_type ? { subagentType: message.subagent_type } : {}),
  });
}
