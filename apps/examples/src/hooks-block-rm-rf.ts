// A project whose `.cursor/hooks.json` refuses `rm -rf`: the policy lives in the repository, and
// every agent that loads the project layer (`local.settingSources: ['project']`) obeys it. The hook
// script is plain shell, written for Cursor, and runs unchanged. Against any OpenAI-compatible server:
//   OPENAI_BASE_URL=http://localhost:8000/v1 node apps/examples/dist/hooks-block-rm-rf.js --model openai/my-model [workspace]
// Without OPENAI_BASE_URL a local fake server plays a model that tries `rm -rf build`, then `ls`.
import { chmod, mkdir, mkdtemp, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ChatCompletionsTurn, startChatCompletionsServer } from '@cairn/core/testing';
import { Agent, type RunResult } from '@cairn/sdk';

/** The hook, as a project would commit it: Cursor's beforeShellExecution answer is `permission` JSON. */
export const blockRmRfScript = `#!/bin/sh
payload=$(cat)
case "$payload" in
  *'rm -rf'*|*'rm -fr'*) echo '{"permission":"deny","user_message":"rm -rf is blocked by this project.","agent_message":"This project forbids rm -rf. Delete single files, or ask the user."}' ;;
  *) echo '{"permission":"allow"}' ;;
esac
`;

export const hooksJson = { version: 1, hooks: { beforeShellExecution: [{ command: '.cursor/hooks/block-rm-rf.sh' }] } };

/** Write the project's hook files into `cwd`. */
export async function writeProjectHooks(cwd: string): Promise<void> {
  await mkdir(join(cwd, '.cursor/hooks'), { recursive: true });
  await writeFile(join(cwd, '.cursor/hooks.json'), `${JSON.stringify(hooksJson, null, 2)}\n`);
  await writeFile(join(cwd, '.cursor/hooks/block-rm-rf.sh'), blockRmRfScript);
  await chmod(join(cwd, '.cursor/hooks/block-rm-rf.sh'), 0o755);
}

export interface HooksExampleOptions {
  cwd: string;
  baseURL?: string;
  apiKey?: string;
  model?: string;
  log?: (line: string) => void;
}

/** Ask the agent to clean the build folder; the hook refuses `rm -rf`, the model reads why. */
export async function runHooksExample(options: HooksExampleOptions): Promise<{ result: RunResult; toolResults: string[]; problems: string[] }> {
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const fake = options.baseURL ? undefined : await startChatCompletionsServer(scriptedTurns);
  const agent = await Agent.create({
    model: options.model ?? 'openai/local-model',
    local: { cwd: options.cwd, store: 'memory', settingSources: ['project'] },
    providers: { openai: { baseURL: options.baseURL ?? fake!.url, ...(options.apiKey ? { apiKey: options.apiKey } : {}) } },
    tools: ['shell'],
  });
  const toolResults: string[] = [];
  try {
    const run = await agent.send('Clean up the build folder.');
    for await (const message of run.stream()) {
      if (message.type === 'status' && message.message) log(`! ${message.message}`);
      if (message.type === 'assistant') for (const block of message.message.content) if (block.type === 'text') log(block.text);
      if (message.type === 'tool_call' && message.status !== 'running') {
        toolResults.push(String(message.result ?? ''));
        log(`  [${message.name}] ${String(message.result ?? '').split('\n')[0]}`);
      }
    }
    return { result: await run.wait(), toolResults, problems: fake?.problems ?? [] };
  } finally {
    await agent.close();
    await fake?.close();
  }
}

/** The fake model: `rm -rf build` first; after the refusal, a plain `ls`; then an answer. */
function scriptedTurns(body: Record<string, any>, index: number): ChatCompletionsTurn {
  const shell = ((body.tools ?? []) as Array<{ function: { name: string } }>).map((tool) => tool.function.name).find((name) => name === 'run_terminal_cmd') ?? 'run_terminal_cmd';
  if (index === 0) return { text: 'Removing the build folder.', toolCalls: [{ name: shell, args: { command: 'rm -rf build' } }] };
  if (index === 1) return { text: 'That was refused; listing the folder instead.', toolCalls: [{ name: shell, args: { command: 'ls' } }] };
  return { text: 'The project forbids rm -rf, so I left the build folder in place.' };
}

const isMain = process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop() ?? '');
if (isMain) {
  const args = process.argv.slice(2);
  const take = (flag: string) => {
    const at = args.indexOf(flag);
    return at >= 0 ? args.splice(at, 2)[1] : undefined;
  };
  const baseURL = take('--base-url') ?? process.env.OPENAI_BASE_URL;
  const model = take('--model');
  const cwd = await realpath(args[0] ?? (await mkdtemp(join(tmpdir(), 'cairn-example-'))));
  await writeProjectHooks(cwd);
  await mkdir(join(cwd, 'build'), { recursive: true });
  const { result } = await runHooksExample({ cwd, ...(baseURL ? { baseURL } : {}), ...(process.env.OPENAI_API_KEY ? { apiKey: process.env.OPENAI_API_KEY } : {}), ...(model ? { model } : {}) });
  process.exitCode = result.status === 'finished' ? 0 : 1;
}
