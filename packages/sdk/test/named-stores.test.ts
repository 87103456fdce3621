import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Agent } from '../src/index.js';

// The stores the SDK's default plugins register by name: `local.store: 'sqlite' | 'jsonl' | 'memory'`,
// opened under the agent's CAIRN_HOME, once per registry (create and resume share the instance).
describe('named stores of the default plugins', () => {
  for (const [name, file] of [['sqlite', 'agents.db'], ['jsonl', 'agents-jsonl']] as const) {
    it(`local.store: '${name}' opens the ${name} store under CAIRN_HOME`, async () => {
      const home = mkdtempSync(join(tmpdir(), `cairn-named-${name}-`));
      const cwd = mkdtempSync(join(tmpdir(), 'cairn-named-ws-'));
      const env = { CAIRN_HOME: home, OPENAI_API_KEY: 'sk-test' };
      const agent = await Agent.create({ model: 'openai/gpt-5.2', local: { cwd, store: name }, env });
      expect(existsSync(join(home, file))).toBe(true);
      const resumed = await Agent.resume(agent.agentId, { local: { cwd, store: name }, env });
      expect(resumed.agentId).toBe(agent.agentId);
      await resumed.close();
      await agent.close();
    });
  }

  it('an unknown store name is an error that lists the registered names', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'cairn-named-ws-'));
    await expect(Agent.create({ model: 'openai/gpt-5.2', local: { cwd, store: 'postgres' }, env: { OPENAI_API_KEY: 'sk-test' } })).rejects.toThrow(/jsonl.*memory.*sqlite|memory.*sqlite.*jsonl|sqlite.*jsonl.*memory/);
  });
});
