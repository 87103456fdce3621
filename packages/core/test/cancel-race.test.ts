import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AgentStore, createMemoryStore, defineTool, type InteractionUpdate, type ModeDefinition } from '../src/index.js';
import { createCairn, type Run } from '../src/node.js';
import { type ScriptedTurn, scriptedModel, scriptedProvider } from '../src/testing.js';
import { tempWorkspace } from './helpers.js';

/** A memory store that logs every write, and can slow the agent-row update (the checkpoint pointer move). */
function recordingStore(slowAgentUpdateMs = 0) {
  const store = createMemoryStore();
  const writes: Array<{ what: string; at: number }> = [];
  const log = (what: string) => writes.push({ what, at: performance.now() });
  const wrapped: AgentStore = {
    ...store,
    agents: {
      ...store.agents,
      put: (record) => (log('agents.put'), store.agents.put(record)),
      update: async (agentId, patch) => {
        if (slowAgentUpdateMs && patch.checkpointRoot !== undefined) await new Promise((resolve) => setTimeout(resolve, slowAgentUpdateMs));
        log(`agents.update${patch.checkpointRoot === undefined ? '' : ':checkpoint'}`);
        return store.agents.update(agentId, patch);
      },
      get: (agentId) => store.agents.get(agentId),
      list: (options) => store.agents.list(options),
      delete: (agentId) => store.agents.delete(agentId),
      acquireLease: (...args) => store.agents.acquireLease(...args),
      renewLease: (...args) => store.agents.renewLease(...args),
      releaseLease: (...args) => (log('agents.releaseLease'), store.agents.releaseLease(...args)),
    },
    checkpoints: { ...store.checkpoints, putBlob: (hash, data) => (log('checkpoints.putBlob'), store.checkpoints.putBlob(hash, data)), getBlob: (hash) => store.checkpoints.getBlob(hash), hasBlob: (hash) => store.checkpoints.hasBlob(hash) },
    runs: { ...store.runs, create: (record) => store.runs.create(record), get: (runId) => store.runs.get(runId), list: (...args) => store.runs.list(...args), update: (runId, patch) => (log(`runs.update${patch.status && patch.status !== 'running' ? ':final' : ''}`), store.runs.update(runId, patch)) },
    runEvents: { append: (runId, events) => (log('runEvents.append'), store.runEvents.append(runId, events)), list: (...args) => store.runEvents.list(...args) },
    approvals: store.approvals,
  };
  return { store: wrapped, writes };
}

const agentMode: ModeDefinition = { id: 'agent', description: 'Does the work.', promptBlocks: [], toolPolicy: { readOnly: false, mcp: 'all' }, sandboxProfile: 'inherit', transitionsTo: ['ask'] };
const askMode: ModeDefinition = { id: 'ask', description: 'Answers questions.', promptBlocks: [], toolPolicy: { readOnly: true, mcp: 'none' }, sandboxProfile: 'read-only', transitionsTo: ['agent'] };

type Trigger = 'checkpoint-save' | 'step-started' | 'text-delta' | 'tool-running' | 'approval-requested' | 'mode-changed' | 'pre-compact';

/** An agent whose run cancels itself at `trigger`: onDelta, a tool, a hook or the slow pointer move fire `cancel`. */
async function cancelledRun(trigger: Trigger) {
  const { store, writes } = recordingStore(trigger === 'checkpoint-save' ? 40 : 0);
  let cancel = () => undefined as void;
  const waitTool = defineTool({
    id: 'wait', name: 'wait', description: 'Waits until the run is cancelled.', inputSchema: z.object({}), readOnly: true, category: 'custom',
    async execute(_input: unknown, context) {
      if (trigger === 'tool-running') cancel();
      await new Promise((resolve) => (context.signal.aborted ? resolve(undefined) : context.signal.addEventListener('abort', resolve, { once: true })));
      return 'stopped';
    },
  });
  const switchTool = defineTool({
    id: 'switch', name: 'switch_to_ask', description: 'Switches to ask mode.', inputSchema: z.object({}), readOnly: true, category: 'planning',
    execute: (_input: unknown, context) => (context.state.set('pendingModeSwitch', { to: 'ask', explanation: 'only questions left' }), 'requested'),
  });
  const turns: Record<Trigger, ScriptedTurn[]> = {
    'checkpoint-save': [{ text: 'never sent' }],
    'step-started': [{ text: 'never sent' }],
    'text-delta': [{ text: 'a long answer that is cut off midway', delayMs: 5 }],
    'tool-running': [{ toolCalls: [{ name: 'wait', args: {} }] }],
    'approval-requested': [{ toolCalls: [{ name: 'wait', args: {} }] }],
    'mode-changed': [{ toolCalls: [{ name: 'switch_to_ask', args: {} }] }, { text: 'in ask mode now' }],
    'pre-compact': [{ text: 'never sent' }],
  };
  const model = scriptedModel(turns[trigger]);
  const { Agent } = createCairn({ plugins: [{ name: 'race', providers: [scriptedProvider({ 'scripted-model': model })], tools: [waitTool, switchTool], modes: [agentMode, askMode] }] });
  const agent = await Agent.create({
    model: 'scripted/scripted-model',
    local: { cwd: await tempWorkspace(), store, settingSources: [] },
    ...(trigger === 'approval-requested' ? { permissions: { ask: ['wait'] }, approvals: 'wait' as const } : {}),
    ...(trigger === 'pre-compact' ? { compaction: { maxTokens: 1 }, hooks: { preCompact: () => (cancel(), undefined) } } : {}),
  });
  const triggers: Partial<Record<Trigger, InteractionUpdate['type']>> = { 'step-started': 'step-started', 'text-delta': 'text-delta', 'approval-requested': 'approval-requested', 'mode-changed': 'mode-changed' };
  let run: Run | undefined;
  let saves = 0;
  cancel = () => void run?.cancel();
  if (trigger === 'checkpoint-save') {
    const update = store.agents.update;
    store.agents.update = (agentId, patch) => {
      if (patch.checkpointRoot !== undefined && ++saves === 1) queueMicrotask(cancel);
      return update(agentId, patch);
    };
  }
  run = await agent.send('go', { onDelta: ({ update }) => (update.type === triggers[trigger] ? cancel() : undefined) });
  const result = await run.wait();
  const endedAt = performance.now();
  // Anything an orphaned promise would still write lands within this window.
  await new Promise((resolve) => setTimeout(resolve, 150));
  return { result, writes, endedAt, store, agent, runId: run.id };
}

describe('a cancel in any state of the run leaves the agent on the run final checkpoint', () => {
  for (const trigger of ['checkpoint-save', 'step-started', 'text-delta', 'tool-running', 'approval-requested', 'mode-changed', 'pre-compact'] as const) {
    it(`cancelled on ${trigger}: the agent row points at the run's final checkpoint, and nothing is written after the run ended`, async () => {
      const { result, writes, endedAt, store, agent, runId } = await cancelledRun(trigger);
      expect(result.status).toBe('cancelled');
      const row = await store.agents.get(agent.agentId);
      const record = await store.runs.get(runId);
      expect(record?.checkpointAfter).toBeTruthy();
      expect(row?.checkpointRoot).toBe(record?.checkpointAfter);
      const final = writes.findIndex((write) => write.what === 'runs.update:final');
      // After the final record only the lease is let go; nothing else, however long we wait.
      expect(writes.slice(final + 1).map((write) => write.what).filter((what) => what !== 'agents.releaseLease')).toEqual([]);
      expect(writes.filter((write) => write.at > endedAt).map((write) => write.what)).toEqual([]);
      // The conversation is well-formed for a follow-up: every call has a result.
      const messages = await agent.reload().then(async () => (await store.checkpoints.getBlob(row?.checkpointRoot as string)) !== undefined);
      expect(messages).toBe(true);
    });
  }
});
