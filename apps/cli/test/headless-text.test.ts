import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChatCompletionsServer } from '@cairn/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { io, useTempCairnHome } from './cli-io.js';

useTempCairnHome();

afterEach(() => {
  delete process.env.OPENAI_BASE_URL;
});

describe('cairn "prompt" in text mode', () => {
  it('says once, on stderr, which permissions are in force and where to change them', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'cairn-headless-text-'));
    const server = await startChatCompletionsServer([{ text: 'ok' }]);
    process.env.OPENAI_BASE_URL = server.url;
    try {
      const bare = io(['--cwd', cwd, '--model', 'openai/gpt-4.1-mini', 'hi']);
      expect(await bare.run()).toBe(0);
      expect(bare.out()).toBe('ok\n');
      expect(bare.err().match(/\[permissions: /g)).toHaveLength(1);
      expect(bare.err()).toMatch(/no rules yet \(add them to \.cairn\/permissions\.json or \$CAIRN_HOME\/permissions\.json\)/);
      expect(bare.err()).toMatch(/"ask" rules are refused in headless runs/);

      await mkdir(join(cwd, '.cairn'));
      await writeFile(join(cwd, '.cairn', 'permissions.json'), JSON.stringify({ deny: ['read(.env)'] }));
      const ruled = io(['--cwd', cwd, '--model', 'openai/gpt-4.1-mini', '--mode', 'ask', 'hi']);
      expect(await ruled.run()).toBe(0);
      expect(ruled.err()).toMatch(/\[permissions: ask mode: read-only tools only · rules from \.cairn\/permissions\.json · /);

      const json = io(['--cwd', cwd, '--model', 'openai/gpt-4.1-mini', '--output-format', 'json', 'hi']);
      expect(await json.run()).toBe(0);
      expect(json.err()).not.toMatch(/\[permissions: /);
    } finally {
      await server.close();
    }
  });
});
