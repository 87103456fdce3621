import { describe, expect, it } from 'vitest';
import type { ModeDefinition } from '../spec/mode/v1/index.js';
import { fallbackAgentMode } from './fallbacks.js';
import { findModeTransition, reachableModes } from './mode-transitions.js';
import { createRegistry } from './registry.js';

const mode = (id: string, links: Pick<ModeDefinition, 'transitionsTo'> & Pick<Partial<ModeDefinition>, 'enterableFrom'>): ModeDefinition => ({
  id, description: `The ${id} mode.`, promptBlocks: [], toolPolicy: { readOnly: true, mcp: 'none' }, sandboxProfile: 'read-only', ...links,
});

describe('findModeTransition', () => {
  const agent = mode('agent', { transitionsTo: ['plan'] });
  const plan = mode('plan', { transitionsTo: [{ mode: 'agent', requiresApproval: true }] });

  it('finds a transition the source lists in transitionsTo, and none the other way round', () => {
    expect(findModeTransition(agent, plan)).toEqual({ mode: 'plan' });
    expect(findModeTransition(plan, agent)).toEqual({ mode: 'agent', requiresApproval: true });
    const ask = mode('ask', { transitionsTo: [] });
    expect(findModeTransition(agent, ask)).toBeUndefined();
    expect(findModeTransition(ask, agent)).toBeUndefined();
  });

  it('finds a transition the target declares in enterableFrom, by id or with "*"', () => {
    const review = mode('review', { transitionsTo: ['agent'], enterableFrom: ['agent'] });
    expect(findModeTransition(agent, review)).toEqual({ mode: 'review' });
    expect(findModeTransition(plan, review)).toBeUndefined();
    const notes = mode('notes', { transitionsTo: [], enterableFrom: ['*'] });
    expect(findModeTransition(plan, notes)).toEqual({ mode: 'notes' });
    expect(findModeTransition(fallbackAgentMode, notes)).toEqual({ mode: 'notes' });
  });

  it('requires approval when either side does', () => {
    const guarded = mode('deploy', { transitionsTo: [], enterableFrom: [{ mode: 'agent', requiresApproval: true }] });
    expect(findModeTransition(agent, guarded)).toEqual({ mode: 'deploy', requiresApproval: true });
    // plan asks for approval to reach agent; agent's enterableFrom cannot waive it.
    const openAgent = { ...agent, enterableFrom: ['*'] };
    expect(findModeTransition(plan, openAgent)).toEqual({ mode: 'agent', requiresApproval: true });
    // A "*" entry with approval wins over a plain entry for the same source.
    const strict = mode('strict', { transitionsTo: [], enterableFrom: ['agent', { mode: '*', requiresApproval: true }] });
    expect(findModeTransition(agent, strict)).toEqual({ mode: 'strict', requiresApproval: true });
  });

  it('has no transition from a mode to itself, nor with an unknown side', () => {
    const any = mode('any', { transitionsTo: ['any'], enterableFrom: ['*'] });
    expect(findModeTransition(any, any)).toBeUndefined();
    expect(findModeTransition(undefined, any)).toBeUndefined();
    expect(findModeTransition(agent, undefined)).toBeUndefined();
  });

  it('lists the modes reachable from a mode, third-party ones included', () => {
    const registry = createRegistry([{ name: 'modes', modes: [agent, plan] }, { name: 'third-party', modes: [mode('review', { transitionsTo: ['agent'], enterableFrom: ['agent'] })] }]);
    expect(reachableModes(registry.mode('agent'), registry.modes())).toEqual([{ mode: 'plan' }, { mode: 'review' }]);
    expect(reachableModes(registry.mode('plan'), registry.modes())).toEqual([{ mode: 'agent', requiresApproval: true }]);
  });
});

describe('validateMode: transitionsTo and enterableFrom', () => {
  const register = (links: Partial<ModeDefinition>) => () => createRegistry([{ name: 'pack', modes: [{ ...mode('review', { transitionsTo: [] }), ...links }] }]);

  it('accepts ids, "*" in enterableFrom and { mode, requiresApproval }', () => {
    expect(register({ enterableFrom: ['agent', '*', { mode: 'plan', requiresApproval: true }] })).not.toThrow();
  });

  it('refuses malformed entries with the field named', () => {
    expect(register({ enterableFrom: 'agent' as never })).toThrow(/Mode "review" from plugin "pack": "enterableFrom" must be an array of mode ids/);
    expect(register({ enterableFrom: ['Agent'] })).toThrow(/"enterableFrom" has an invalid entry "Agent"/);
    expect(register({ enterableFrom: [{ mode: 'agent', requiresApproval: 'yes' as never }] })).toThrow(/"enterableFrom" has an invalid entry/);
    expect(register({ transitionsTo: ['*'] })).toThrow(/"transitionsTo" has an invalid entry "\*"/);
    expect(register({ transitionsTo: [{ to: 'agent' } as never] })).toThrow(/"transitionsTo" has an invalid entry \{"to":"agent"\}/);
  });
});
