import { describe, expect, it } from 'vitest';
import type { InteractionUpdate, SDKMessage } from '../src/index.js';
import { tempWorkspace } from './helpers.js';
import { gate, subagentSetup, textTool } from './subagents-helpers.js';

const model = 'scripted/scripted-model';

describe('the task tool starts subagents as real runs', () => {
  it('runs 6 subagents of one turn 4 at a time, in order, each in its own context, and sums their usage into the parent run', async () => {
    const log: string[] = [];
    let active = 0;
    let most = 0;
    const fourAtOnce = gate();
    const hold = textTool({
      id: 'hold',
      readOnly: true,
      async execute(text) {
        log.push(`start:${text}`);
        most = Math.max(most, ++active);
        // The first four wait for each other: a limit below 4 never gets here, one above 4 shows in `most`.
        if (active === 4) fourAtOnce.open();
        await fourAtOnce.promise;
        active--;
        log.push(`end:${text}`);
        return `held ${text}`;
      },
    });
    const { Agent, store } = subagentSetup((view) => {
      const child = /CHILD-(\d)/.exec(view.firstUser)?.[1];
      if (child) return view.toolResults.length === 0 ? { toolCalls: [{ name: 'hold', args: { text: child } }] } : { text: `result of child ${child}` };
      if (view.toolResults.length === 0) {
        return { toolCalls: [1, 2, 3, 4, 5, 6].map((n) => ({ name: 'task', id: `task_${n}`, args: { description: `part ${n}`, prompt: `Do CHILD-${n}`, subagent_type: 'generalPurpose' } })) };
      }
      return { text: 'all six done' };
    }, [hold]);
    const agent = await Agent.create({ model, local: { cwd: await tempWorkspace(), store } });
    const updates: InteractionUpdate[] = [];
    const run = await agent.send('Start six subagents for the secret parent request', { onDelta: ({ update }) => void updates.push(update) });
    const messages: SDKMessage[] = [];
    for await (const message of run.stream()) messages.push(message);
    const result = await run.wait();

    expect(result).toMatchObject({ status: 'finished', result: 'all six done' });
    expect(most).toBe(4);
    const firstEnd = log.findIndex((entry) => entry.startsWith('end:'));
    expect(log.indexOf('start:5')).toBeGreaterThan(firstEnd);
    expect(log.indexOf('start:6')).toBeGreaterThan(firstEnd);

    const results = messages.filter((message) => message.type === 'tool_call' && message.status === 'completed' && message.name === 'task');
    expect(results.map((message) => (message as { result?: unknown }).result).sort()).toEqual([1, 2, 3, 4, 5, 6].map((n) => `result of child ${n}`));
    const tasks = messages.filter((message) => message.type === 'task');
    expect(tasks.filter((message) => message.status === 'running')).toHaveLength(6);
    expect(tasks.filter((message) => message.status === 'finished').map((message) => message.call_id).sort()).toEqual([1, 2, 3, 4, 5, 6].map((n) => `task_${n}`));

    // One nested level: the children's own tool calls show under the parent's task calls.
    const nested = updates.filter((update) => update.type === 'tool-call-delta');
    expect(nested.some((update) => update.callId === 'task_3' && update.taskUpdate.type === 'tool-call-completed')).toBe(true);
    expect(nested.every((update) => update.taskUpdate.type !== 'tool-call-delta' as string)).toBe(true);

    const children = (await store.agents.list({ limit: 50 })).items.filter((record) => record.parentRunId === run.id);
    expect(children.map((record) => record.parentToolCallId).sort()).toEqual([1, 2, 3, 4, 5, 6].map((n) => `task_${n}`));
    expect(children.every((record) => record.parentAgentId === agent.agentId && record.subagentType === 'generalPurpose')).toBe(true);
    for (const child of children) {
      const runs = (await Agent.listRuns(child.agentId, { store })).items;
      expect(runs.map((entry) => entry.status)).toEqual(['finished']);
    }

    // Parent: 2 turns; each child: 2 turns; the scripted model reports 10 in / 5 out per turn.
    expect(result.usage).toMatchObject({ inputTokens: 140, outputTokens: 70 });
    expect((await agent.getUsage()).usage).toMatchObject({ inputTokens: 140, outputTokens: 70 });
    await agent.close();
  });

  it('a subagent never sees the parent conversation; its prompt is its first user message', async () => {
    const seen: string[] = [];
    const { Agent, store } = subagentSetup((view) => {
      if (view.firstUser.includes('LOOK-AROUND')) {
        seen.push(JSON.stringify(view.call.prompt));
        return { text: 'looked' };
      }
      return view.toolResults.length === 0 ? { toolCalls: [{ name: 'task', args: { description: 'look', prompt: 'LOOK-AROUND please' } }] } : { text: 'ok' };
    }, []);
    const agent = await Agent.create({ model, local: { cwd: await tempWorkspace(), store } });
    expect((await (await agent.send('the parent secret 4711')).wait()).status).toBe('finished');
    expect(seen).toHaveLength(1);
    expect(seen[0]).not.toContain('4711');
    await agent.close();
  });

  it('a subagent of a subagent is not offered the task tool and is refused when it calls it', async () => {
    const toolsByLevel: Record<string, string[]> = {};
    const taskResults: Record<string, string[]> = {};
    const { Agent, store } = subagentSetup((view) => {
      const level = /LEVEL-(\d)/.exec(view.firstUser)?.[1] ?? '0';
      toolsByLevel[level] = view.toolNames;
      taskResults[level] = view.toolResults;
      if (view.toolResults.length > 0) return { text: `level ${level} done` };
      return { toolCalls: [{ name: 'task', args: { description: `level ${Number(level) + 1}`, prompt: `Go to LEVEL-${Number(level) + 1}` } }] };
    }, []);
    const agent = await Agent.create({ model, local: { cwd: await tempWorkspace(), store } });
    expect((await (await agent.send('nest')).wait()).result).toBe('level 0 done');
    expect(toolsByLevel['0']).toContain('task');
    expect(toolsByLevel['1']).toContain('task');
    expect(toolsByLevel['2']).not.toContain('task');
    expect(toolsByLevel['3']).toBeUndefined();
    expect(taskResults['2']?.[0]).toContain('Unknown tool \\"task\\"');
    expect((await store.agents.list()).items).toHaveLength(3);
    await agent.close();
  });

  it('under a read-only parent the subagent runs read-only: its writes are refused and never run', async () => {
    const written: string[] = [];
    const write = textTool({ id: 'write_note', readOnly: false, execute: (text) => {
        written.push(text);
        return 'written';
      },
    });
    const childResults: string[] = [];
    const { Agent, store } = subagentSetup((view) => {
      if (view.firstUser.includes('WRITER')) {
        if (view.toolResults.length === 0) return { toolCalls: [{ name: 'write_note', args: { text: 'x' } }] };
        childResults.push(...view.toolResults);
        return { text: 'could not write' };
      }
      return view.toolResults.length === 0 ? { toolCalls: [{ name: 'task', args: { description: 'write', prompt: 'WRITER: write a note' } }] } : { text: 'planned' };
    }, [write]);
    const agent = await Agent.create({ model, mode: 'readonly', local: { cwd: await tempWorkspace(), store } });
    expect((await (await agent.send('plan something')).wait()).status).toBe('finished');
    expect(written).toEqual([]);
    // The child is offered only what the read-only parent offers: the write tool is not there at all.
    expect(childResults[0]).toContain('Unknown tool \\"write_note\\"');
    const child = (await store.agents.list()).items.find((record) => record.parentAgentId === agent.agentId);
    expect(child?.mode).toBe('readonly');
    await agent.close();
  });

  it('cancelling the parent cancels every running subagent', async () => {
    const started: AbortSignal[] = [];
    const allStarted = gate();
    const block = textTool({
      id: 'block',
      readOnly: true,
      execute: (_text, signal) =>
        new Promise<string>((_resolve, reject) => {
          started.push(signal);
          if (started.length === 3) allStarted.open();
          signal.addEventListener('abort', () => reject(signal.reason), { once: true });
        }),
    });
    const { Agent, store } = subagentSetup((view) => {
      if (view.firstUser.includes('BLOCKER')) return { toolCalls: [{ name: 'block', args: { text: 'wait' } }] };
      return { toolCalls: [1, 2, 3].map((n) => ({ name: 'task', args: { description: `block ${n}`, prompt: `BLOCKER ${n}` } })) };
    }, [block]);
    const agent = await Agent.create({ model, local: { cwd: await tempWorkspace(), store } });
    const run = await agent.send('start three blockers');
    await allStarted.promise;
    await run.cancel();
    expect((await run.wait()).status).toBe('cancelled');
    expect(started.every((signal) => signal.aborted)).toBe(true);
    const children = (await store.agents.list()).items.filter((record) => record.parentRunId === run.id);
    expect(children).toHaveLength(3);
    for (const child of children) {
      const [childRun] = (await Agent.listRuns(child.agentId, { store })).items;
      expect((await childRun!.wait()).status).toBe('cancelled');
    }
    await agent.close();
  });

  it("a subagent's failure and an unknown type are error results; the parent run goes on", async () => {
    const { Agent, store } = subagentSetup((view) => {
      if (view.firstUser.includes('BROKEN')) return { throws: Object.assign(new Error('model exploded'), { code: 'bad_request' }) };
      if (view.toolResults.length === 0) {
        return {
          toolCalls: [
            { name: 'task', id: 'broken', args: { description: 'broken', prompt: 'BROKEN child' } },
            { name: 'task', id: 'unknown', args: { description: 'who', prompt: 'x', subagent_type: 'nobody' } },
          ],
        };
      }
      return { text: `parent saw: ${view.toolResults.join(' | ')}` };
    }, []);
    const agent = await Agent.create({ model, retry: { maxAttempts: 1 }, local: { cwd: await tempWorkspace(), store } });
    const result = await (await agent.send('try')).wait();
    expect(result.status).toBe('finished');
    expect(result.result).toContain('The generalPurpose subagent ended with status error');
    expect(result.result).toContain('Unknown subagent_type \\"nobody\\". Available: generalPurpose, explore');
    await agent.close();
  });
});
