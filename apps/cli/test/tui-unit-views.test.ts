import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderToString } from 'ink';
import { createElement as h } from 'react';
import { describe, expect, it } from 'vitest';
import { rememberedRuleFor } from '@cairn/server/workspace-permissions';
import { EntryView } from '../src/tui/entry-view.js';
import { PromptView } from '../src/tui/prompt-view.js';
import { footerText, statusText } from '../src/tui/status-view.js';
import { workspacePermissions } from '@cairn/server/workspace-permissions';

const view = { width: 100, color: false };

describe('what the screen says (the terminal tests read these texts)', () => {
  it('asks for a tool call with the three choices', () => {
    const out = renderToString(h(PromptView, { prompt: { kind: 'approval', canRemember: true, request: { callId: 'c1', kind: 'tool', reason: 'no rule allows npm install', toolName: 'run_terminal_cmd', args: { command: 'npm install' } } } }), { columns: 100 });
    expect(out).toContain('Allow this call?');
    expect(out).toContain('run: npm install');
    expect(out).toContain('[y] allow once   [a] allow always in this workspace   [n] deny');
  });

  it('leaves out "always" when no exact rule can be written, and names mode switches', () => {
    const out = renderToString(h(PromptView, { prompt: { kind: 'approval', canRemember: false, request: { callId: 'm', kind: 'mode-switch', reason: 'r', modeSwitch: { from: 'ask', to: 'agent', explanation: 'needs edits' } } } }), { columns: 100 });
    expect(out).toContain('Allow this mode switch?');
    expect(out).toContain('switch from ask to agent mode: needs edits');
    expect(out).toContain('[y] allow once   [n] deny');
  });

  it('offers approve, edit and reject for a plan', () => {
    expect(renderToString(h(PromptView, { prompt: { kind: 'plan', plan: { name: 'x' } } }), { columns: 100 })).toContain('Plan proposed: [y] approve and run it   [e] edit (describe changes)   [n] reject');
  });

  it('draws tool lines and diffs', () => {
    expect(renderToString(h(EntryView, { entry: { id: 1, kind: 'tool', name: 'run_terminal_cmd', argument: 'npm test', ok: false, detail: 'exit 1' }, view }))).toBe('✗ run_terminal_cmd npm test — exit 1');
    const diff = renderToString(h(EntryView, { entry: { id: 2, kind: 'diff', lines: [{ kind: 'file', text: 'a.ts' }, { kind: 'remove', text: '-1' }, { kind: 'add', text: '+2' }] }, view }));
    expect(diff.split('\n')).toEqual(['  a.ts', '  -1', '  +2']);
  });

  it('shows the running tool with the elapsed time, and the footer', () => {
    expect(statusText({ startedAt: 0, tool: 'npm test' }, 12_400)).toMatch(/^. running: npm test · 12 s · Ctrl\+C cancels$/);
    expect(footerText({ agentId: 'agent-83f414bd-bc01-49f8-86df-2a71ae5a1dd5', model: 'openai/gpt-4.1-mini', mode: 'agent', cwd: '/w', inputTokens: 1234, outputTokens: 56, costCents: 0.12 })).toBe(
      'agent-83f414bd · openai/gpt-4.1-mini · agent mode · 1,234 in · 56 out · $0.0012 · /help',
    );
  });
});

describe('"allow always"', () => {
  it('writes exact rules, and none for a command that would become a glob', () => {
    expect(rememberedRuleFor({ callId: 'a', kind: 'tool', reason: '', toolName: 'run_terminal_cmd', args: { command: 'npm test' } }, '/w')).toBe('shell(npm test)');
    expect(rememberedRuleFor({ callId: 'a', kind: 'tool', reason: '', toolName: 'run_terminal_cmd', args: { command: 'rm *.log' } }, '/w')).toBeUndefined();
    expect(rememberedRuleFor({ callId: 'a', kind: 'tool', reason: '', toolName: 'write', args: { path: '../x.txt' } }, '/w/p')).toBe('edit(/w/x.txt)');
    expect(rememberedRuleFor({ callId: 'a', kind: 'mode-switch', reason: '', modeSwitch: { from: 'ask', to: 'agent', explanation: '' } }, '/w')).toBe('mode-switch(ask->agent)');
  });

  it('keeps rules per workspace in the user file, each once, and names a damaged file', async () => {
    const home = await mkdtemp(join(tmpdir(), 'cairn-wp-'));
    const store = workspacePermissions(home);
    await store.remember('/a', 'shell(npm test)');
    await store.remember('/a', 'shell(npm test)');
    await store.remember('/b', 'shell(make)');
    expect(await store.rules('/a')).toEqual(['shell(npm test)']);
    expect(await store.rules('/c')).toEqual([]);
    expect(JSON.parse(await readFile(store.file, 'utf8')).workspaces['/b'].allow).toEqual(['shell(make)']);
    await writeFile(store.file, '[]');
    await expect(store.rules('/a')).rejects.toThrow(/workspace-permissions\.json/);
  });
});
