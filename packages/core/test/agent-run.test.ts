import { describe, expect, it } from 'vitest';
import type { SDKMessage } from '../src/index.js';
import { setup, tempWorkspace } from './helpers.js';

describe('Agent.create / send / stream / wait', () => {
  it('runs a tool-using turn end to end and a follow-up sees the previous turn', async () => {
    const { model, Agent } = setup([
      { text: 'Let me echo.', toolCalls: [{ name: 'echo', args: { text: 'hi' } }] },
      { text: 'Done: echoed hi.' },
      { text: 'You asked me to echo before.' },
    ]);
    const cwd = await tempWorkspace();
    const agent = await Agent.create({ model: 'scripted/scripted-model', local: { cwd } });
    const run = await agent.send('Echo hi');
    const seen: SDKMessage[] = [];
    for await (const message of run.stream()) seen.push(message);
    const result = await run.wait();
    expect(result.status).toBe('finished');
    expect(result.result).toBe('Done: echoed hi.');
    const types = seen.map((message) => message.type);
    expect(types[0]).toBe('system');
    expect(types).toContain('tool_call');
    const completed = seen.find((message) => message.type === 'tool_call' && message.status === 'completed');
    expect(completed).toMatchObject({ name: 'echo', args: { text: 'hi' }, result: 'echo: hi' });
    expect(seen[seen.length - 1]).toMatchObject({ type: 'status', status: 'FINISHED' });

    const followUp = await agent.send('What did I ask before?');
    expect((await followUp.wait()).result).toBe('You asked me to echo before.');
    const third = model.calls[2]!.prompt;
    // system, user, assistant(tool call), tool, assistant, user
    expect(third.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'user']);
    const toolMessage = third[3]!;
    expect(toolMessage.role === 'tool' && toolMessage.content[0]?.toolCallId).toBe('call_1_1');
    expect(JSON.stringify(third[1])).toContain('<user_query>');
    expect(JSON.stringify(third[1])).toContain('<project_layout>');
    expect(JSON.stringify(third[5])).not.toContain('<project_layout>');
    model.assertComplete();
  });

  it('replays the whole run to every subscriber, also after it ended', async () => {
    const { Agent } = setup([{ text: 'hello there' }]);
    const agent = await Agent.create({ model: 'scripted/scripted-model', local: { cwd: await tempWorkspace() } });
    const run = await agent.send('hi');
    const collect = async () => {
      const out: string[] = [];
      for await (const message of run.stream()) out.push(message.type);
      return out;
    };
    const [first, second] = await Promise.all([collect(), collect()]);
    await run.wait();
    const third = await collect();
    expect(first).toEqual(second);
    expect(third).toEqual(first);
    expect(first).toContain('assistant');
  });
});
