import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ChatCompletionsServer, type ChatCompletionsTurn, startChatCompletionsServer } from '@cairn/core/testing';
import { type BuiltCli, buildCli } from '../pty/build-cli.js';

export const model = 'openai/gpt-4.1-mini';

/**
 * What a serve test needs: the bundled CLI, a fake OpenAI-compatible model that answers by the last
 * user message (`script`), and the environment pointing the server at both and at a temp store.
 */
export interface ServeFixture {
  cli: BuiltCli;
  model: ChatCompletionsServer;
  env: Record<string, string>;
  dispose(): Promise<void>;
}

export async function serveFixture(name: string, script: (lastUserText: string, body: Record<string, any>) => ChatCompletionsTurn): Promise<ServeFixture> {
  const cli = await buildCli(`serve-${name}`);
  const fake = await startChatCompletionsServer((body) => {
    const last = body.messages.at(-1);
    if (last?.role === 'tool') return { text: `done: ${String(last.content).slice(0, 40)}` };
    const user = [...body.messages].reverse().find((message: { role: string }) => message.role === 'user');
    // The user's own words, out of the context blocks the runtime wraps them in.
    const content = user?.content;
    const raw = typeof content === 'string' ? content : Array.isArray(content) ? content.map((part: { text?: string }) => part.text ?? '').join('\n') : '';
    const text = /<user_query>\n([\s\S]*?)\n<\/user_query>/.exec(raw)?.[1] ?? raw;
    return script(text, body);
  });
  const home = await mkdtemp(join(tmpdir(), 'cairn-serve-home-'));
  const env = { OPENAI_API_KEY: 'sk-dummy', OPENAI_BASE_URL: fake.url, OPENAI_API: 'chat', CAIRN_MODEL: model, CAIRN_HOME: home };
  return {
    cli,
    model: fake,
    env,
    async dispose() {
      await fake.close();
      cli.dispose();
    },
  };
}
