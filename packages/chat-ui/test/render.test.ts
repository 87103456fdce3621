import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ApprovalPrompt } from '../src/components/approval-prompt.js';
import { CairnChat } from '../src/components/cairn-chat.js';
import { Composer } from '../src/components/composer.js';
import { MessageList } from '../src/components/message-list.js';
import { ConnectionBadge, RunStatusLine, UsageDisplay } from '../src/components/status-bar.js';
import { initialRunView, runViewReducer } from '../src/state/index.js';
import { RunLog, tokens } from './support/run-log.js';

// No DOM here (the browser tests drive the real page); the server renderer checks what the
// components draw for a given state: the test ids, the statuses, the markdown.

const noop = async () => undefined;

function transcript() {
  const args = { path: 'b.ts', old_string: 'a', new_string: 'b' };
  const plan = { name: 'Fix', overview: 'Do it', plan: '1. **edit**', todos: [{ id: '1', content: 'Edit', dependencies: [] }] };
  const log = new RunLog()
    .start('Fix b.ts')
    .update({ type: 'thinking-delta', text: 'hmm' })
    .update({ type: 'thinking-completed', thinkingDurationMs: 500 })
    .update({ type: 'text-delta', text: 'Here is `code`:\n\n```ts\nconst x: number = 1;\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |' })
    .toolCall('c1', 'search_replace', 'edit', args)
    .runTool('c1', 'search_replace', 'edit', args, 'ok')
    .update({ type: 'todos-updated', todos: [{ id: '1', content: 'Edit', status: 'completed' }, { id: '2', content: 'Test', status: 'in_progress' }] })
    .update({ type: 'plan-created', plan });
  return log.events.reduce(runViewReducer, initialRunView('run-1'));
}

describe('components', () => {
  it('draws every kind of item with its test id', () => {
    const html = renderToStaticMarkup(createElement(MessageList, { runs: [transcript()], busy: false, running: true, onApprovePlan: () => undefined }));
    for (const id of ['message-list', 'user-message', 'thinking', 'assistant-text', 'tool-call', 'diff', 'todos', 'plan', 'approve-plan']) expect(html).toContain(`data-testid="${id}"`);
    expect(html).toContain('data-tool-name="search_replace"');
    expect(html).toContain('data-status="completed"');
    // Thinking is closed by default: no `open` attribute on its details.
    expect(html).toMatch(/<details class="cairn-thinking" data-testid="thinking"><summary>Thought for 0.5 s<\/summary>/);
    // Markdown: GFM table, highlighted code with our prefix.
    expect(html).toContain('<table>');
    expect(html).toContain('cairn-hl-keyword');
    expect(html).toContain('class="cairn-diff-remove" data-kind="remove">-a</div>');
    expect(html).toContain('class="cairn-diff-add" data-kind="add">+b</div>');
  });

  it('draws no raw HTML from the model', () => {
    const run = new RunLog().start('x').update({ type: 'text-delta', text: 'hi <img src=x onerror=alert(1)> [a](javascript:alert(1))' }).events.reduce(runViewReducer, initialRunView('run-1'));
    const html = renderToStaticMarkup(createElement(MessageList, { runs: [run], busy: false, running: false, onApprovePlan: () => undefined }));
    expect(html).not.toContain('<img');
    expect(html).not.toContain('javascript:');
  });

  it('offers all three answers for a tool request, and no "always" for a mode switch', () => {
    const tool = renderToStaticMarkup(createElement(ApprovalPrompt, { approval: { runId: 'r', callId: 'c', kind: 'tool', reason: 'ask rule', toolName: 'run_terminal_cmd', args: { command: 'git push' }, status: 'pending' }, onAnswer: noop }));
    for (const id of ['approval', 'approve-once', 'approve-always', 'deny']) expect(tool).toContain(`data-testid="${id}"`);
    expect(tool).toContain('Allow run_terminal_cmd git push?');
    const modeSwitch = renderToStaticMarkup(
      createElement(ApprovalPrompt, { approval: { runId: 'r', callId: 'mode-switch-1', kind: 'mode-switch', reason: 'r', modeSwitch: { from: 'ask', to: 'agent', explanation: 'to edit' }, status: 'pending' }, onAnswer: noop }),
    );
    expect(modeSwitch).toContain('Switch to agent mode?');
    expect(modeSwitch).not.toContain('approve-always');
  });

  it('draws the composer with its pickers, and Cancel only while running', () => {
    const props = { sending: false, mode: 'plan', onModeChange: () => undefined, models: [{ id: 'openai/gpt-5.2', displayName: 'GPT-5.2' }], model: '', onModelChange: () => undefined, onSend: noop, onCancel: () => undefined };
    const idle = renderToStaticMarkup(createElement(Composer, { ...props, running: false }));
    for (const id of ['composer', 'send', 'mode-picker', 'model-picker']) expect(idle).toContain(`data-testid="${id}"`);
    expect(idle).not.toContain('data-testid="cancel"');
    expect(idle).toContain('<option value="plan" selected="">plan</option>');
    expect(idle).toContain('GPT-5.2');
    expect(renderToStaticMarkup(createElement(Composer, { ...props, running: true }))).toContain('data-testid="cancel"');
  });

  it('says when the run waits for approval, and shows usage and the connection', () => {
    const waiting = new RunLog().start('x').update({ type: 'approval-requested', callId: 'c', kind: 'tool', reason: 'r' }).events.reduce(runViewReducer, initialRunView('run-1'));
    expect(renderToStaticMarkup(createElement(RunStatusLine, { run: waiting }))).toContain('data-status="awaiting-approval"');
    const usage = renderToStaticMarkup(createElement(UsageDisplay, { usage: { usage: tokens(12_000, 345), cost: { rawCostCents: 4, chargedCents: 4 }, runs: [] }, live: tokens(100, 0) }));
    expect(usage).toContain('data-testid="usage"');
    expect(usage).toContain('12k tokens · $0.040');
    expect(renderToStaticMarkup(createElement(ConnectionBadge, { state: 'reconnecting' }))).toContain('data-state="reconnecting"');
  });

  it('renders the whole chat before anything loaded', () => {
    const html = renderToStaticMarkup(createElement(CairnChat, { serverUrl: 'http://127.0.0.1:1', token: 't' }));
    for (const id of ['cairn-chat', 'agent-list', 'message-list', 'composer', 'run-status', 'usage', 'connection']) expect(html).toContain(`data-testid="${id}"`);
  });
});
