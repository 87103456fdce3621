import { describe, expect, it } from 'vitest';
import { assign, createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import type { ModelMessage } from '../spec/language-model/v1/index.js';
import type { ModeDefinition } from '../spec/mode/v1/index.js';
import type { ToolDefinition } from '../spec/tool/v1/index.js';
import type { CheckedToolCall, ToolCallOutcome } from '../runtime/tool-runner.js';
import { maxInvalidToolSteps, runMachine, toFailure } from './run-machine.js';
import type { ActOnToolCallsInput, ApprovalRequest, AwaitApprovalsInput, CheckToolCallsOutput, RunMachineEvent, RunMachineInput, StopHookInput, StopHookOutput, StreamModelInput } from './run-machine-types.js';
import { emptyTurn, type TurnState } from './turn-state.js';

const mode = (id: string, readOnly: boolean, transitionsTo: ModeDefinition['transitionsTo']): ModeDefinition => ({
  id, description: id, promptBlocks: [], toolPolicy: { readOnly, mcp: 'none' }, sandboxProfile: readOnly ? 'read-only' : 'inherit', transitionsTo,
});
const modes = new Map([
  ['plan', mode('plan', true, [{ mode: 'agent', requiresApproval: true }, 'ask'])],
  ['ask', mode('ask', true, ['agent', 'plan'])],
  ['agent', mode('agent', false, ['ask', 'plan'])],
]);
const runModes = { resolve: (id: string) => modes.get(id), rightsOf: (definition: ModeDefinition) => ({ writes: !definition.toolPolicy.readOnly, shell: 1 as const, network: [], mcp: 0 as const, tools: [] }) };
const user: ModelMessage = { role: 'user', content: [{ type: 'text', text: 'go' }] };
const tool = { id: 'fake', name: 'fake', description: 'fake', inputSchema: { type: 'object' }, readOnly: true, execute: () => 'ok' } as unknown as ToolDefinition;

const textTurn = (text: string): TurnState => ({ ...emptyTurn(), blocks: [{ kind: 'text', id: 't', text }], finishReason: { unified: 'stop', raw: undefined } });
const toolTurn = (...ids: string[]): TurnState => ({ ...emptyTurn(), blocks: ids.map((id) => ({ kind: 'tool-call' as const, toolCallId: id, toolName: 'fake', inputText: '{}' })) });
const call = (id: string) => ({ toolCallId: id, toolName: 'fake', inputText: '{}' });
const ready = (id: string): CheckedToolCall => ({ kind: 'ready', call: call(id), tool, input: {}, args: {}, paths: [] });
const asking = (id: string): CheckedToolCall => ({ kind: 'ask', call: call(id), tool, input: {}, args: {}, paths: [], verdict: { decision: 'ask', reason: 'an ask rule matches' } });
const outcome = (id: string, invalid = false): ToolCallOutcome => ({ toolCallId: id, toolName: 'fake', args: {}, output: { type: 'text', value: `result ${id}` }, text: `result ${id}`, isError: false, truncated: false, invalid });
const never = () => new Promise<never>(() => undefined);

interface Script {
  /** The turns the model returns, one per step. */
  turns: TurnState[];
  compactAt?: number[];
  check?: (turn: TurnState) => CheckToolCallsOutput;
  /** What executeTools sends besides results, per step. */
  toolEvents?: (step: number) => RunMachineEvent[];
  invalid?: boolean;
  /** The state whose actor never finishes (to cancel there); `saving`: the step's save in sampling, `savingCalls`: the calls' save in acting. */
  hangIn?: 'preparing' | 'saving' | 'compacting' | 'sampling' | 'savingCalls' | 'checking' | 'acting';
  /** The stop hooks' answer when the run would finish (with `stopHook: true` in the input). */
  stop?: (input: StopHookInput) => StopHookOutput;
  /** Prepare steps inline (the runtime's `preparesInline` guard and `prepareInline` action), as this function says. */
  prepareInline?: (step: { step: number; messages: ModelMessage[] }) => { messages: ModelMessage[]; needsCompaction: boolean };
}

function start(script: Script, input: Partial<RunMachineInput> = {}) {
  const saves: Array<{ messages: ModelMessage[]; mode: string }> = [];
  const waits: ApprovalRequest[][] = [];
  const stopped: string[] = [];
  const stops: StopHookInput[] = [];
  const hang = script.hangIn;
  // The actors that save a checkpoint (the step's, the calls', the wait's) record it here, or hang in it.
  const save = async (saved: { messages: ModelMessage[]; mode: string }, signal: AbortSignal, hangs: boolean) => {
    if (hangs) {
      signal.addEventListener('abort', () => stopped.push('saveCheckpoint'));
      return never();
    }
    saves.push(saved);
  };
  const prepared: number[] = [];
  const inline = script.prepareInline;
  const machine = runMachine.provide({
    guards: { preparesInline: () => inline !== undefined },
    actions: {
      // As the runtime's: a failure becomes the run's error, which the prepareFailed guard routes to failed.
      prepareInline: assign(({ context }) => {
        try {
          const result = inline?.({ step: context.step, messages: context.messages });
          if (!result) throw new Error('prepareInline without a script');
          return { messages: result.messages, needsCompaction: result.needsCompaction };
        } catch (error) {
          return { error: toFailure(error, 'prepare_failed') };
        }
      }),
    },
    actors: {
      prepareStep: fromPromise(async ({ input: step }) => {
        prepared.push(step.step);
        if (hang === 'preparing') return never();
        return { messages: step.messages, needsCompaction: script.compactAt?.includes(step.step + 1) ?? false };
      }),
      compact: fromPromise(async ({ input: step, signal }) => {
        if (hang === 'compacting') return never();
        const messages = [...step.messages, { role: 'user', content: [{ type: 'text', text: 'summary' }] } as ModelMessage];
        await save({ messages, mode: step.mode }, signal, false);
        return { messages };
      }),
      saveCheckpoint: fromPromise(async ({ input: saved, signal }) => save(saved, signal, false)),
      streamModel: fromCallback<RunMachineEvent, StreamModelInput>(({ input: step, sendBack }) => {
        const turn = script.turns[step.step - 1] ?? textTurn('done');
        const controller = new AbortController();
        if (hang === 'sampling') {
          step.sink.current = textTurn('partial');
          return () => stopped.push('streamModel');
        }
        // The step's save runs beside the model call; the turn is reported once it is done.
        void (step.saveCheckpoint ? save({ messages: step.messages, mode: step.mode }, controller.signal, hang === 'saving') : Promise.resolve()).then(() => sendBack({ type: 'model.done', turn }));
        return () => controller.abort();
      }),
      // As the runtime's: save and check a fresh turn's calls (an approval goes to the machine), then run them.
      actOnToolCalls: fromCallback<RunMachineEvent, ActOnToolCallsInput>(({ input: act, sendBack }) => {
        const controller = new AbortController();
        const run = (checked: Record<string, CheckedToolCall>) => {
          for (const block of act.turn.blocks) {
            if (block.kind !== 'tool-call') continue;
            const call = checked[block.toolCallId];
            act.outcomes[block.toolCallId] = call?.kind === 'done' ? call.outcome : outcome(block.toolCallId, script.invalid);
          }
          for (const event of script.toolEvents?.(act.step) ?? []) sendBack(event);
          sendBack({ type: 'tools.done' });
        };
        const work = async () => {
          if (act.decided) {
            if (hang === 'acting') return never();
            return run(act.checked);
          }
          if (act.save) await save({ messages: act.save, mode: act.mode }, controller.signal, hang === 'savingCalls');
          if (hang === 'checking') return never();
          const checked = script.check?.(act.turn) ?? {
            checked: Object.fromEntries(act.turn.blocks.flatMap((block) => (block.kind === 'tool-call' ? [[block.toolCallId, ready(block.toolCallId)]] : []))),
            approvals: [],
          };
          if (checked.approvals.length > 0) return sendBack({ type: 'tools.checked', ...checked });
          if (hang === 'acting') return never();
          run(checked.checked);
        };
        void work();
        return () => {
          if (hang === 'acting') stopped.push('actOnToolCalls');
          controller.abort();
        };
      }),
      awaitApprovals: fromCallback<RunMachineEvent, AwaitApprovalsInput>(({ input: wait }) => {
        waits.push(wait.approvals);
        return () => stopped.push('awaitApprovals');
      }),
      stopHook: fromPromise(async ({ input: stop }) => {
        stops.push(stop);
        return script.stop?.(stop) ?? {};
      }),
    },
  });
  const actor = createActor(machine, { input: { messages: [user], mode: 'agent', maxSteps: 10, modes: runModes, state: {}, canApproveModeSwitch: true, ...input } });
  actor.start();
  return { actor, saves, waits, stopped, stops, prepared };
}

const settled = (actor: ReturnType<typeof start>['actor']) => waitFor(actor, (snapshot) => snapshot.status === 'done');

describe('run machine', () => {
  it('finishes a text turn: preparing -> sampling (saving the step) -> finished, with the turn in the output', async () => {
    const { actor, saves } = start({ turns: [textTurn('hello')] });
    const done = await settled(actor);
    expect(done.output).toMatchObject({ status: 'finished', result: 'hello', mode: 'agent' });
    expect(done.output?.messages.at(-1)).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'hello' }] });
    expect(saves).toHaveLength(1);
  });

  it('prepares inline when the runtime says so: no prepareStep actor, the same steps, compaction still routed', async () => {
    const note: ModelMessage = { role: 'user', content: [{ type: 'text', text: 'rule reminder' }] };
    const inlineSteps: number[] = [];
    const { actor, saves, prepared } = start({
      turns: [toolTurn('a'), textTurn('done')],
      compactAt: [2],
      prepareInline: ({ step, messages }) => {
        inlineSteps.push(step);
        return { messages: step === 0 ? [...messages, note] : messages, needsCompaction: step + 1 === 2 };
      },
    });
    const done = await settled(actor);
    expect(done.output?.status).toBe('finished');
    expect(prepared).toEqual([]);
    expect(inlineSteps).toEqual([0, 1]);
    expect(done.output?.messages[1]).toEqual(note);
    // Step 1 saved in sampling, its calls in acting, then step 2 compacted (and saved there).
    expect(saves.map((save) => save.messages.length)).toEqual([2, 3, 5]);
    expect(JSON.stringify(saves.at(-1)?.messages.at(-1))).toContain('summary');
  });

  it('an inline preparation that throws fails the run with prepare_failed', async () => {
    const { actor } = start({
      turns: [textTurn('never')],
      prepareInline: () => {
        throw new Error('the rules file is unreadable');
      },
    });
    const done = await settled(actor);
    expect(done.output).toMatchObject({ status: 'error', error: { code: 'prepare_failed', message: 'the rules file is unreadable' } });
    expect(done.output?.messages).toEqual([user]);
  });

  it('with a stop hook, stopping may keep the run going: the reason is the next user message, the counter goes up', async () => {
    const { actor, stops } = start({ turns: [textTurn('first'), textTurn('second')], stop: ({ continues }) => (continues === 0 ? { continueWith: 'Run the tests.' } : {}) }, { stopHook: true });
    const done = await settled(actor);
    expect(done.output).toMatchObject({ status: 'finished', result: 'second' });
    expect(stops.map((stop) => [stop.continues, stop.result])).toEqual([[0, 'first'], [1, 'second']]);
    expect(done.output?.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(done.output?.messages[2]).toEqual({ role: 'user', content: [{ type: 'text', text: 'Run the tests.' }] });
  });

  it('without a stop hook, finishing never enters stopping', async () => {
    const { actor, stops } = start({ turns: [textTurn('hello')], stop: () => ({ continueWith: 'never asked' }) });
    expect((await settled(actor)).output?.status).toBe('finished');
    expect(stops).toEqual([]);
  });

  it('runs tools: acting saves the calls first, appends the results, then the next step', async () => {
    const { actor, saves } = start({ turns: [toolTurn('a', 'b'), textTurn('done')] });
    const done = await settled(actor);
    expect(done.output?.status).toBe('finished');
    expect(done.context.step).toBe(2);
    const roles = done.output?.messages.map((message) => message.role);
    expect(roles).toEqual(['user', 'assistant', 'tool', 'assistant']);
    // step 1: before the call, the calls; step 2: before the call.
    expect(saves.map((save) => save.messages.length)).toEqual([1, 2, 3]);
  });

  it('the calls\' checkpoint and the next step\'s share the assistant message object (no second hash of it)', async () => {
    const { actor, saves } = start({ turns: [toolTurn('a'), textTurn('done')] });
    const done = await settled(actor);
    expect(saves[1]?.messages[1]).toBe(saves[2]?.messages[1]);
    expect(done.output?.messages[1]).toBe(saves[1]?.messages[1]);
  });

  it('enters compacting when preparing says so, then saves the compacted conversation', async () => {
    const { actor, saves } = start({ turns: [toolTurn('a'), textTurn('done')], compactAt: [2] });
    const done = await settled(actor);
    expect(done.output?.status).toBe('finished');
    expect(JSON.stringify(saves.at(-1)?.messages.at(-1))).toContain('summary');
  });

  it('stops at maxSteps and after too many invalid steps, with typed errors', async () => {
    const limited = start({ turns: [toolTurn('a'), toolTurn('b'), toolTurn('c')] }, { maxSteps: 2 });
    expect((await settled(limited.actor)).output).toMatchObject({ status: 'error', error: { code: 'max_steps' } });
    const invalid = start({ turns: Array.from({ length: 5 }, (_, index) => toolTurn(`x${index}`)), invalid: true });
    const done = await settled(invalid.actor);
    expect(done.output).toMatchObject({ status: 'error', error: { code: 'invalid_tool_calls' } });
    expect(done.context.step).toBe(maxInvalidToolSteps);
  });

  it('a failed stream ends failed, keeping the partial text; a failing actor fails the run', async () => {
    const { actor } = start({ turns: [], hangIn: 'sampling' });
    await waitFor(actor, (snapshot) => snapshot.matches('sampling'));
    actor.send({ type: 'model.failed', turn: textTurn('half'), error: { message: 'boom', code: 'provider_error' } });
    const done = await settled(actor);
    expect(done.output).toMatchObject({ status: 'error', error: { code: 'provider_error' }, result: 'half' });
    const second = start({ turns: [], hangIn: 'acting' });
    second.actor.send({ type: 'work.failed', error: { message: 'disk full', code: 'store_failed' } });
    expect((await settled(second.actor)).output).toMatchObject({ status: 'error', error: { message: 'disk full' } });
  });

  describe('approvals', () => {
    const withAsk = (turn: TurnState): CheckToolCallsOutput => ({
      checked: Object.fromEntries(turn.blocks.map((block) => [(block as { toolCallId: string }).toolCallId, asking((block as { toolCallId: string }).toolCallId)])),
      approvals: turn.blocks.map((block) => ({ callId: (block as { toolCallId: string }).toolCallId, kind: 'tool' as const, reason: 'an ask rule matches', toolName: 'fake' })),
    });

    it('a call under an ask rule waits in awaitingApproval; approved, it runs', async () => {
      const { actor, waits } = start({ turns: [toolTurn('a'), textTurn('done')], check: withAsk });
      await waitFor(actor, (snapshot) => snapshot.matches({ awaitingApproval: 'waiting' }));
      expect(waits[0]?.map((request) => request.callId)).toEqual(['a']);
      actor.send({ type: 'approval.decided', callId: 'a', decision: { approved: true } });
      const done = await settled(actor);
      expect(done.output?.status).toBe('finished');
      expect(JSON.stringify(done.output?.messages[2])).toContain('result a');
    });

    it('denied, the call gets a refusal with the reason and is never run; answers for other ids are ignored', async () => {
      const { actor } = start({ turns: [toolTurn('a', 'b'), textTurn('done')], check: withAsk });
      await waitFor(actor, (snapshot) => snapshot.matches({ awaitingApproval: 'waiting' }));
      actor.send({ type: 'approval.decided', callId: 'zzz', decision: { approved: true } });
      actor.send({ type: 'approval.decided', callId: 'a', decision: { approved: false, reason: 'not today' } });
      expect(actor.getSnapshot().matches('awaitingApproval')).toBe(true);
      actor.send({ type: 'approval.decided', callId: 'b', decision: { approved: true } });
      const done = await settled(actor);
      const results = JSON.stringify(done.output?.messages[2]);
      expect(results).toContain('Permission denied for fake: an ask rule matches; the user declined it: not today');
      expect(results).toContain('result b');
    });

    it('a mode switch that needs approval waits; approved, the mode changes and the ceiling moves', async () => {
      const state: Record<string, unknown> = {};
      const { actor, waits } = start({ turns: [toolTurn('a'), textTurn('done')], toolEvents: () => [{ type: 'mode.switch', to: 'agent', explanation: 'ready to build' }] }, { mode: 'plan', state });
      const updates: unknown[] = [];
      actor.on('updates', (event) => updates.push(...event.updates));
      await waitFor(actor, (snapshot) => snapshot.matches({ awaitingApproval: 'waiting' }));
      expect(waits[0]?.[0]).toMatchObject({ callId: 'mode-switch-1', kind: 'mode-switch', modeSwitch: { from: 'plan', to: 'agent', explanation: 'ready to build' } });
      actor.send({ type: 'approval.decided', callId: 'mode-switch-1', decision: { approved: true } });
      const done = await settled(actor);
      expect(done.output?.mode).toBe('agent');
      expect(state.approvedMode).toBe('agent');
      expect(updates).toContainEqual({ type: 'mode-changed', from: 'plan', to: 'agent', source: 'plan-approval' });
    });

    it('a declined switch keeps the mode and tells the model', async () => {
      const { actor } = start({ turns: [toolTurn('a'), textTurn('done')], toolEvents: () => [{ type: 'mode.switch', to: 'agent', explanation: '' }] }, { mode: 'plan' });
      await waitFor(actor, (snapshot) => snapshot.matches({ awaitingApproval: 'waiting' }));
      actor.send({ type: 'approval.decided', callId: 'mode-switch-1', decision: { approved: false, reason: 'keep planning' } });
      const done = await settled(actor);
      expect(done.output?.mode).toBe('plan');
      expect(JSON.stringify(done.output?.messages)).toContain('The user declined the switch to agent mode (keep planning)');
    });

    it('headless (nobody can approve): the switch is refused at once, without waiting', async () => {
      const { actor, waits } = start({ turns: [toolTurn('a'), textTurn('done')], toolEvents: () => [{ type: 'mode.switch', to: 'agent', explanation: '' }] }, { mode: 'plan', canApproveModeSwitch: false });
      const done = await settled(actor);
      expect(waits).toHaveLength(0);
      expect(done.output?.mode).toBe('plan');
      expect(JSON.stringify(done.output?.messages)).toContain('The switch to agent mode was refused');
    });

    it('a switch within the rights applies without asking; an unknown mode is refused', async () => {
      const allowed = start({ turns: [toolTurn('a'), textTurn('done')], toolEvents: () => [{ type: 'mode.switch', to: 'ask', explanation: '' }] });
      expect((await settled(allowed.actor)).output?.mode).toBe('ask');
      const unknown = start({ turns: [toolTurn('a'), textTurn('done')], toolEvents: () => [{ type: 'mode.switch', to: 'root', explanation: '' }] });
      const done = await settled(unknown.actor);
      expect(done.output?.mode).toBe('agent');
      expect(JSON.stringify(done.output?.messages)).toContain('no such mode');
    });

    it('resumes at a waiting switch, or at the tool calls of a waiting turn (a new process)', async () => {
      const approval: ApprovalRequest = { callId: 'mode-switch-3', kind: 'mode-switch', reason: 'r', modeSwitch: { from: 'plan', to: 'agent', explanation: '' } };
      const atSwitch = start({ turns: [] }, { mode: 'plan', resume: { step: 3, modeSwitch: { to: 'agent', planApproval: true, approval } } });
      await waitFor(atSwitch.actor, (snapshot) => snapshot.matches({ awaitingApproval: 'waiting' }));
      expect(atSwitch.waits[0]?.[0]?.callId).toBe('mode-switch-3');
      const atTools = start({ turns: [], check: withAsk }, { resume: { step: 2, turn: toolTurn('q') } });
      await waitFor(atTools.actor, (snapshot) => snapshot.matches({ awaitingApproval: 'waiting' }));
      expect(atTools.actor.getSnapshot().context.step).toBe(2);
      atTools.actor.send({ type: 'approval.decided', callId: 'q', decision: { approved: true } });
      const done = await settled(atTools.actor);
      expect(done.context.step).toBe(3);
      expect(done.output?.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
      // The resumed calls are the saved conversation's: no save before checking them; the wait's, then the next step's.
      expect(atTools.saves.map((save) => save.messages.length)).toEqual([2, 3]);
    });
  });

  describe('cancel in every state', () => {
    const cases = [
      { state: 'preparing', match: 'preparing', hangIn: 'preparing', roles: ['user'], stopped: [] },
      { state: 'sampling', match: 'sampling', hangIn: 'saving', roles: ['user'], stopped: ['saveCheckpoint'] },
      { state: 'compacting', match: 'compacting', hangIn: 'compacting', roles: ['user'], stopped: [], compactAt: [1] },
      { state: 'sampling', match: 'sampling', hangIn: 'sampling', roles: ['user', 'assistant'], stopped: ['streamModel'] },
      { state: 'acting', match: 'acting', hangIn: 'savingCalls', roles: ['user', 'assistant', 'tool'], stopped: ['saveCheckpoint'] },
      { state: 'acting', match: 'acting', hangIn: 'checking', roles: ['user', 'assistant', 'tool'], stopped: [] },
      { state: 'acting', match: 'acting', hangIn: 'acting', roles: ['user', 'assistant', 'tool'], stopped: ['actOnToolCalls'] },
    ] as const;
    for (const entry of cases) {
      it(`${JSON.stringify(entry.match)}: ends cancelled, stops the state's actor, closes the conversation`, async () => {
        const { actor, stopped } = start({ turns: [toolTurn('a')], hangIn: entry.hangIn, ...('compactAt' in entry ? { compactAt: [...entry.compactAt] } : {}) });
        await waitFor(actor, (snapshot) => snapshot.matches(entry.match));
        actor.send({ type: 'cancel' });
        const done = await settled(actor);
        expect(done.output?.status).toBe('cancelled');
        expect(done.context.interruptedIn).toBe(entry.state);
        expect(done.output?.messages.map((message) => message.role)).toEqual(entry.roles);
        expect(stopped).toEqual(entry.stopped);
        if (entry.state === 'acting') expect(JSON.stringify(done.output?.messages.at(-1))).toContain('was cancelled before this tool call finished');
        if (entry.hangIn === 'sampling') expect(done.output?.result).toBe('partial');
      });
    }

    it('awaitingApproval: ends cancelled, stops waiting, every waiting call gets an aborted result', async () => {
      const { actor, stopped } = start({ turns: [toolTurn('a')], check: (turn) => ({ checked: { a: asking('a') }, approvals: [{ callId: 'a', kind: 'tool', reason: 'r' }], ...(turn ? {} : {}) }) });
      await waitFor(actor, (snapshot) => snapshot.matches({ awaitingApproval: 'waiting' }));
      actor.send({ type: 'cancel' });
      const done = await settled(actor);
      expect(done.context.interruptedIn).toBe('awaitingApproval');
      expect(stopped).toEqual(['awaitApprovals']);
      expect(done.output?.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
    });
  });
});
