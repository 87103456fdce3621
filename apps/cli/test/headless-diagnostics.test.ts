import { mkdir, mkdtemp, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChatCompletionsServer } from '@cairn/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { io, useTempCairnHome } from './cli-io.js';

useTempCairnHome();

afterEach(() => {
  delete process.env.OPENAI_BASE_URL;
});

/** The text of the write's result in the model's second request. */
function writeResult(requests: Array<Record<string, any>>): string {
  const tool = (requests[1]?.messages as Array<{ role: string; content: unknown }> | undefined)?.find((message) => message.role === 'tool');
  return typeof tool?.content === 'string' ? tool.content : JSON.stringify(tool?.content);
}

async function runWrite(flags: string[]): Promise<string> {
  const cwd = await realpath(await mkdtemp(join(tmpdir(), 'cairn-cli-diagnostics-')));
  await writeFile(join(cwd, 'tsconfig.json'), '{ "compilerOptions": { "strict": true }, "include": ["src"] }\n');
  await mkdir(join(cwd, 'src'));
  const server = await startChatCompletionsServer([{ toolCalls: [{ name: 'write', args: { path: 'src/n.ts', contents: 'export const n: number = "x";\n' } }] }, { text: 'done' }]);
  // The provider reads the process's environment; the flag works on the CLI's own (a copy here).
  process.env.OPENAI_BASE_URL = server.url;
  try {
    const cli = io(['--cwd', cwd, '--model', 'openai/gpt-4.1-mini', ...flags, 'write it'], { ...process.env });
    const code = await cli.run();
    expect(code, cli.err()).toBe(0);
    return writeResult(server.requests);
  } finally {
    await server.close();
  }
}

describe('cairn "prompt": diagnostics after edits', () => {
  it('appends the language server diagnostics (or that they are unavailable yet) to an edit of a TypeScript file', async () => {
    const result = await runWrite([]);
    expect(result).toContain('<diagnostics source="typescript-language-server">');
    expect(result).toMatch(/src\/n\.ts: (1 error introduced by this edit|diagnostics unavailable \(language server starting\))/);
  });

  it('--no-diagnostics leaves them out', async () => {
    const result = await runWrite(['--no-diagnostics']);
    expect(result).toMatch(/src\/n\.ts/);
    expect(result).not.toContain('<diagnostics');
  });
});
