import type { FileChange, InteractionUpdate, ToolExecutionContext } from '../index.js';

export interface TestToolContext extends ToolExecutionContext {
  updates: InteractionUpdate[];
  fileChanges: FileChange[];
  stateValues: Map<string, unknown>;
}

/** A real ToolExecutionContext backed by plain collections, so tool tests can read what the tool did. */
export function createToolContext(overrides: Partial<ToolExecutionContext> = {}): TestToolContext {
  const stateValues = new Map<string, unknown>();
  const updates: InteractionUpdate[] = [];
  const fileChanges: FileChange[] = [];
  return {
    toolCallId: 'call-1',
    agentId: 'agent-1',
    runId: 'run-1',
    cwd: process.cwd(),
    mode: 'agent',
    signal: new AbortController().signal,
    emit: (update) => updates.push(update),
    state: {
      get: <T>(key: string) => stateValues.get(key) as T | undefined,
      set: (key, value) => void stateValues.set(key, value),
    },
    recordFileChange: async (change) => void fileChanges.push(change),
    sandbox: { profile: 'none', networkAllow: [], required: false },
    isPathDenied: () => false,
    settings: {},
    env: {},
    ...overrides,
    updates,
    fileChanges,
    stateValues,
  };
}
