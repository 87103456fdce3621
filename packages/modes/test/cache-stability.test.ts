import { describe, expect, it } from 'vitest';
import { runCacheScenario } from '../bench/cache-stability-scenario.mjs';
import { modesPlugin } from '../src/index.js';

const describeShares = (shares: Array<{ request: number; charShare: number }>) => shares.map((share) => `${share.request}:${(share.charShare * 100).toFixed(1)}%`).join(' ');

describe('cache stability (20 requests through the OpenAI Chat adapter)', () => {
  it.each([
    ['agent', 'agent'],
    ['readOnly', 'plan'],
    ['readOnly', 'ask'],
    ['readOnly', 'debug'],
  ] as const)('%s scenario in %s mode keeps 95 percent (characters) of every request a byte-identical prefix of the previous one', async (name, mode) => {
    const { bodies, shares } = await runCacheScenario(name, modesPlugin, { mode });
    expect(bodies).toHaveLength(20);
    for (const share of shares) expect(share.charShare, describeShares(shares)).toBeGreaterThanOrEqual(0.95);
    // Nothing already sent ever changes: each request starts with the whole previous one.
    for (const share of shares) expect(share.previousReused, describeShares(shares)).toBe(1);
    // In tokens the new content weighs a little more (JSON-escaped file text is token-dense): a step
    // that appends two file reads to a 13 KB request is at ~94.9 %.
    for (const share of shares) expect(share.tokenShare).toBeGreaterThanOrEqual(0.94);
    // One system prompt and one tool list for the whole conversation.
    expect(new Set(bodies.map((body) => JSON.stringify((body.messages as unknown[])[0]))).size).toBe(1);
    expect(new Set(bodies.map((body) => JSON.stringify(body.tools))).size).toBe(1);
    expect(new Set(bodies.map((body) => body.prompt_cache_key)).size).toBe(1);
  });

  it('after an approved plan -> agent switch only the switching request loses the tool prefix; with stableToolList none does', async () => {
    const strict = await runCacheScenario('planThenAgent', modesPlugin);
    expect(strict.bodies).toHaveLength(20);
    const low = strict.shares.filter((share) => share.charShare < 0.95).map((share) => share.request);
    // Request 6 is the first in agent mode: its tool list differs, so its prefix ends inside the tools.
    expect(low).toEqual([6]);
    const stable = await runCacheScenario('planThenAgent', modesPlugin, { stableToolList: true });
    for (const share of stable.shares) expect(share.charShare, describeShares(stable.shares)).toBeGreaterThanOrEqual(0.95);
    // Plan mode still refuses the write tools it now offers: the first plan-mode request lists them.
    expect(JSON.stringify(stable.bodies[0]!.tools)).toContain('"write"');
  });
});
