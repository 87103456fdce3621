import { describe, expect, it } from 'vitest';
import { type AgentStore, createMemoryStore } from '../src/index.js';
import { setup, tempWorkspace } from './helpers.js';

const turns = [
  { text: 'one', toolCalls: [{ name: 'echo', args: { text: 'a' } }] },
  { text: 'two', toolCalls: [{ name: 'echo', args: { text: 'b' } }] },
  { text: 'done' },
];

describe("a step's checkpoint is saved beside its model call", () => {
  it('each step commit happens once that step has asked the model, not before', async () => {
    const { Agent, model } = setup(turns);
    const inner = createMemoryStore();
    // How many model calls had started when each step commit ran.
    const seen: number[] = [];
    const store: AgentStore = {
      ...inner,
      commitStep: async (step) => {
        seen.push(model.calls.length);
        return inner.commitStep!(step);
      },
    };
    const agent = await Agent.create({ model: 'scripted/scripted-model', local: { cwd: await tempWorkspace(), store } });
    seen.length = 0;
    const result = await (await agent.send('go')).wait();
    expect(result.status).toBe('finished');
    model.assertComplete();
    // Step 1: its save beside call 1, then the calls' save; step 2 likewise with call 2; step 3's
    // save beside call 3. Saved before the request, the step saves would see 0, 1 and 2 calls.
    expect(seen.slice(0, 5)).toEqual([1, 1, 2, 2, 3]);
    // The conversation the model was asked with is what the commits hold: nothing lost.
    const history = await Agent.messages.listModelMessages(agent.agentId, { store: inner });
    expect(history.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant']);
    await agent.close();
  });
});
