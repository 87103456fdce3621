import { describe, expect, it } from 'vitest';
import { createToolContext } from '../test/tool-context.js';
import { planningTools, planningToolsPlugin } from './plugin.js';
import { switchModeTool } from './switch-mode-tool.js';

describe('switch_mode', () => {
  it('records the request for the run machine instead of switching', async () => {
    const context = createToolContext({ mode: 'plan' });
    const text = await switchModeTool.execute({ mode: 'agent', explanation: 'The plan was approved.' }, context);
    expect(context.stateValues.get('pendingModeSwitch')).toMatchObject({ to: 'agent', from: 'plan', explanation: 'The plan was approved.' });
    expect(context.mode).toBe('plan');
    expect(text).toContain('takes effect at the next step');
  });

  it('refuses a switch to the current mode', async () => {
    const context = createToolContext({ mode: 'agent' });
    await expect(switchModeTool.execute({ mode: 'agent', explanation: 'x' }, context)).rejects.toThrow('already in agent mode');
    expect(context.stateValues.has('pendingModeSwitch')).toBe(false);
  });

  it('ships all three tools, read-only, in the plugin', () => {
    expect(planningToolsPlugin.tools).toBe(planningTools);
    expect(planningTools.map((tool) => [tool.id, tool.name, tool.readOnly])).toEqual([
      ['todo', 'todo_write', true],
      ['plan', 'create_plan', true],
      ['switchMode', 'switch_mode', true],
    ]);
  });
});
