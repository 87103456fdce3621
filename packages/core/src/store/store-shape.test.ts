import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../spec/errors/index.js';
import { composeLocalAgentStore } from './compose-local-agent-store.js';
import { createMemoryStore } from './memory-store.js';
import { assertAgentStore } from './store-shape.js';

describe('the optional approvals substore', () => {
  const fourParts = () => {
    const { agents, checkpoints, runs, runEvents } = createMemoryStore();
    return { agents, checkpoints, runs, runEvents };
  };
  const partialApprovals = () => {
    const { request, get, list } = createMemoryStore().approvals;
    return { request, get, list };
  };

  it('assertAgentStore accepts a store without approvals and one with complete approvals', () => {
    expect(() => assertAgentStore(fourParts(), 'store')).not.toThrow();
    expect(() => assertAgentStore(createMemoryStore(), 'store')).not.toThrow();
  });

  it('assertAgentStore names the approvals methods a store lacks', () => {
    expect(() => assertAgentStore({ ...fourParts(), approvals: partialApprovals() }, 'local.store')).toThrow(/local\.store is not a complete store: it lacks approvals\.decide\./);
    expect(() => assertAgentStore({ ...fourParts(), approvals: null }, 'local.store')).toThrow(/lacks approvals\./);
  });

  it('composeLocalAgentStore passes approvals through and checks them when given', () => {
    const memory = createMemoryStore();
    expect(composeLocalAgentStore({ ...fourParts(), approvals: memory.approvals }).approvals).toBe(memory.approvals);
    expect('approvals' in composeLocalAgentStore(fourParts())).toBe(false);
    expect(() => composeLocalAgentStore({ ...fourParts(), approvals: partialApprovals() as never })).toThrow(ConfigurationError);
    expect(() => composeLocalAgentStore({ ...fourParts(), approvals: partialApprovals() as never })).toThrow(/lack approvals\.decide/);
  });
});

describe('the optional commitCheckpoint', () => {
  it('assertAgentStore accepts a store with or without it, and refuses one that is not a function', () => {
    const { commitCheckpoint: _commit, ...withoutIt } = createMemoryStore();
    expect(() => assertAgentStore(withoutIt, 'store')).not.toThrow();
    expect(() => assertAgentStore({ ...withoutIt, commitCheckpoint: true }, 'local.store')).toThrow(/local\.store\.commitCheckpoint must be a function \(agentId, blobs, patch\) or absent, not boolean/);
  });

  it('composeLocalAgentStore takes a whole store spread in and leaves its commitCheckpoint out (the parts may be other backends)', () => {
    const memory = createMemoryStore();
    const composed = composeLocalAgentStore({ ...memory, runs: createMemoryStore().runs });
    expect(composed.agents).toBe(memory.agents);
    expect('commitCheckpoint' in composed).toBe(false);
  });
});
