import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentStore } from '@cairn/core';
import { createCairn } from '@cairn/core/node';
import { scriptedModel, scriptedProvider } from '@cairn/core/testing';
import { createJsonlStore } from '@cairn/store-jsonl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/index.js';
import { AgentChild, buildAgentChild, type ChildLine } from './child-harness.js';
import { conversationProblems, textOf } from './conversation-checks.js';

// A child process runs an agent (slow streaming, then a slow tool that writes a file, then a burst
// of thousands of appends); the test kills it with SIGKILL at three points and resumes in this
// process with a fresh store handle.
let child: { script: string; dispose(): void };
let root: string;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'cairn-crash-'));
  child = await buildAgentChild('crash');
});
afterAll(() => {
  child?.dispose();
  rmSync(root, { recursive: true, force: true });
});

type Backend = 'sqlite' | 'jsonl';
type KillPoint = 'mid-stream' | 'mid-tool' | 'mid-append';

/** After how many lines matching `matches` to kill (each kill point gets a fresh counter). */
const counting = (matches: (line: ChildLine) => boolean, count: number) => () => {
  let seen = 0;
  return (line: ChildLine) => matches(line) && ++seen >= count;
};

const killAt: Record<KillPoint, { holdMs: number; when: () => (line: ChildLine) => boolean }> = {
  // Five text deltas into the first (slow) model turn.
  'mid-stream': { holdMs: 60_000, when: counting((line) => typeof line.delta === 'string', 5) },
  // The tool wrote its file and is waiting.
  'mid-tool': { holdMs: 60_000, when: counting((line) => line.marker === 'tool-wrote', 1) },
  // 200 deltas into the second turn's burst of appends (one append per delta, no delay).
  'mid-append': { holdMs: 0, when: counting((line) => typeof line.delta === 'string' && line.delta.startsWith('burst'), 200) },
};

function open(backend: Backend, location: string): AgentStore {
  return backend === 'sqlite' ? createSqliteStore({ path: location }) : createJsonlStore({ dir: location });
}

describe.each<Backend>(['sqlite', 'jsonl'])('kill -9 of a process running an agent (%s)', (backend) => {
  it.each<KillPoint>(['mid-stream', 'mid-tool', 'mid-append'])('killed %s: every streamed event kept, run closed as interrupted, conversation well-formed, follow-up works', async (point) => {
    const cwd = mkdtempSync(join(root, `${backend}-${point}-ws-`));
    const location = join(root, `${backend}-${point}${backend === 'sqlite' ? '.db' : ''}`);
    const agentChild = new AgentChild(child.script, { backend, location, cwd, scenario: 'crash', holdMs: killAt[point].holdMs });
    await agentChild.waitFor(killAt[point].when());
    await agentChild.kill9();
    const { agentId, runId } = await agentChild.waitFor((line) => line.marker === 'run', 100);

    const store = open(backend, location);
    try {
      // Every event the child saw acknowledged is in the log, unchanged, and offsets are dense.
      const stored = (await store.runEvents.list(runId)).events;
      expect(stored.map((event) => event.offset)).toEqual(stored.map((_event, index) => index + 1));
      const acknowledged = agentChild.acknowledged(runId);
      expect(acknowledged.size).toBeGreaterThan(0);
      for (const [offset, event] of acknowledged) expect(stored[offset - 1]?.event).toEqual(event);
      const storedDeltas = stored.flatMap(({ event }) => (event.kind === 'update' && event.update.type === 'text-delta' ? [event.update.text] : []));
      expect(storedDeltas.slice(0, agentChild.deltas().length)).toEqual(agentChild.deltas());

      const model = scriptedModel([{ text: 'follow-up answer' }]);
      const { Agent } = createCairn({ plugins: [{ name: 'parent', providers: [scriptedProvider({ 'scripted-model': model })] }] });
      const agent = await Agent.resume(agentId, { local: { cwd, store } });

      const interrupted = await Agent.getRun(runId, { store });
      expect(interrupted.status).toBe('error');
      expect(interrupted.error?.code).toBe('interrupted');
      const streamed = [];
      for await (const message of interrupted.stream()) streamed.push(message);
      expect(streamed.at(-1)).toMatchObject({ type: 'status', status: 'ERROR', error: { code: 'interrupted' } });

      const history = await Agent.messages.listModelMessages(agentId, { store });
      expect(conversationProblems(history)).toEqual([]);
      expect(history[0]?.role).toBe('user');
      const toolResults = history.filter((message) => message.role === 'tool').map((message) => textOf(message.content));
      if (point === 'mid-stream') expect(history.map((message) => message.role)).toEqual(['user']);
      if (point === 'mid-tool') {
        // The call was persisted before the tool ran; the resume answered it with an aborted result.
        expect(toolResults).toHaveLength(1);
        expect(toolResults[0]).toMatch(/interrupted/);
        expect(readFileSync(join(cwd, 'out.txt'), 'utf8')).toBe('hello from the child');
      }
      if (point === 'mid-append') expect(toolResults).toEqual([expect.stringContaining('wrote out.txt')]);

      const followUp = await (await agent.send('are you there?')).wait();
      expect(followUp).toMatchObject({ status: 'finished', result: 'follow-up answer' });
      const prompt = model.calls[0]!.prompt.filter((message) => message.role !== 'system');
      expect(conversationProblems(prompt as never)).toEqual([]);
      expect(textOf(prompt.at(-1)!.content)).toContain('are you there?');
      const after = await Agent.messages.listModelMessages(agentId, { store });
      expect(conversationProblems(after)).toEqual([]);
      expect(after.at(-1)).toMatchObject({ role: 'assistant' });
      expect(textOf(after.at(-1)!.content)).toBe('follow-up answer');
      expect((await Agent.get(agentId, { store })).lease).toBeNull();
      await agent.close();
    } finally {
      await store.close?.();
    }
  });
});
