import { createRegistry, type ModeDefinition, subagentModeFor } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { debugReminder, remainingInstrumentation } from './debug-reminder.js';
import { builtInModes, createModesPlugin, modesPlugin, planMode } from './index.js';

describe('built-in modes', () => {
  it('register through the plugin and pass validation', () => {
    const registry = createRegistry([modesPlugin]);
    expect(registry.modes().map((mode) => mode.id)).toEqual(['agent', 'plan', 'ask', 'debug']);
  });

  it('plan and ask are read-only with a read-only sandbox; only plan offers create_plan', () => {
    for (const mode of builtInModes.filter((entry) => entry.id === 'plan' || entry.id === 'ask')) {
      expect(mode.toolPolicy.readOnly).toBe(true);
      expect(mode.sandboxProfile).toBe('read-only');
      expect(mode.toolPolicy.shell).toBe('sandbox-read-only');
      expect(mode.toolPolicy.mcp).toBe('readOnlyHint');
    }
    expect(planMode.toolPolicy.allow).toContain('plan');
    expect(builtInModes.find((mode) => mode.id === 'ask')?.toolPolicy.deny).toContain('plan');
  });

  it('leaving plan for agent requires approval', () => {
    expect(planMode.transitionsTo).toContainEqual({ mode: 'agent', requiresApproval: true });
  });

  it('mode texts carry no run-specific data, so they are byte-stable', () => {
    for (const mode of builtInModes) expect(mode.promptBlocks.join('\n')).not.toMatch(/\d{4}-\d{2}-\d{2}|\/tmp\//);
  });
});

describe('createModesPlugin', () => {
  it('adds custom modes and lets one replace a built-in', () => {
    const strictAgent: ModeDefinition = { ...builtInModes[0]!, description: 'Agent without MCP.', toolPolicy: { readOnly: false, mcp: 'none', shell: 'host' } };
    const review: ModeDefinition = { id: 'review', description: 'Review.', promptBlocks: [], toolPolicy: { readOnly: true, mcp: 'none', shell: 'off' }, sandboxProfile: 'read-only', transitionsTo: [] };
    const registry = createRegistry([createModesPlugin({ modes: [strictAgent, review] })]);
    expect(registry.modes().map((mode) => mode.id)).toEqual(['plan', 'ask', 'debug', 'agent', 'review']);
    expect(registry.mode('agent')?.description).toBe('Agent without MCP.');
  });

  it('rejects an invalid mode with a message naming the field', () => {
    const bad = { id: 'Bad Mode', description: 'x', promptBlocks: [], toolPolicy: { readOnly: true, mcp: 'none' }, sandboxProfile: 'read-only', transitionsTo: [] } as ModeDefinition;
    expect(() => createRegistry([createModesPlugin({ modes: [bad] })])).toThrow(/"id" must be a lower-case name/);
  });
});

describe('debugReminder', () => {
  const context = (files: Array<{ path: string; text: string | null }>) => ({ step: 3, toolCalls: [], state: {}, editedFiles: files });

  it('is silent when no edited file holds instrumentation', () => {
    expect(debugReminder(context([]))).toBeUndefined();
    expect(debugReminder(context([{ path: 'a.ts', text: 'clean' }, { path: 'gone.ts', text: null }]))).toBeUndefined();
  });

  it('names each file and its marked line count', () => {
    const files = [
      { path: 'a.ts', text: 'x // CAIRN-DEBUG\ny\nz // CAIRN-DEBUG\n' },
      { path: 'b.py', text: 'print(1)  # CAIRN-DEBUG' },
    ];
    expect(remainingInstrumentation(context(files))).toEqual([{ path: 'a.ts', lines: 2 }, { path: 'b.py', lines: 1 }]);
    expect(debugReminder(context(files))).toContain('a.ts (2 lines), b.py (1 line)');
  });
});

describe('subagent modes', () => {
  it('read-only modes hand subagents a read-only mode; a writing subagentMode of a read-only mode is ignored', () => {
    const registry = createRegistry([modesPlugin]);
    const resolve = (id: string) => registry.mode(id);
    expect(subagentModeFor(registry.mode('plan')!, resolve).id).toBe('ask');
    expect(subagentModeFor(registry.mode('ask')!, resolve).id).toBe('ask');
    expect(subagentModeFor(registry.mode('agent')!, resolve).id).toBe('agent');
    const sneaky: ModeDefinition = { ...planMode, id: 'sneaky', subagentMode: 'agent' };
    expect(subagentModeFor(sneaky, resolve).id).toBe('sneaky');
  });
});
