import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { defineTool, type ToolExecutionContext } from '../src/index.js';
import { setup, tempWorkspace } from './helpers.js';

describe('tool signal lifetime', () => {
  it('keeps a finished call signal alive for later steps (background work) and aborts it when the run ends', async () => {
    const signals: AbortSignal[] = [];
    const seen: boolean[] = [];
    const capture = defineTool({
      id: 'capture', name: 'capture', description: 'Capture the signal.', inputSchema: z.object({}), readOnly: true, category: 'custom',
      execute: (_input: object, context: ToolExecutionContext) => {
        seen.push(...signals.map((signal) => signal.aborted));
        signals.push(context.signal);
        return 'ok';
      },
    });
    const { Agent } = setup([{ toolCalls: [{ name: 'capture', args: {} }] }, { toolCalls: [{ name: 'capture', args: {} }] }, { text: 'done' }], [capture]);
    const agent = await Agent.create({ model: 'scripted/scripted-model', local: { cwd: await tempWorkspace() } });
    await (await agent.send('go')).wait();
    expect(seen).toEqual([false]);
    expect(signals.every((signal) => signal.aborted)).toBe(true);
  });
});
