import { createInterface } from 'node:readline/promises';
import { Agent, type CairnAgent } from '@cairn/sdk';
import { describeCliError } from '../cli-errors.js';
import { defaultModel, noModelMessage } from '../default-model.js';
import { createTextRenderer } from '../render/run-renderer.js';
import { cliMcpLocalOptions } from './mcp-trust.js';
import { cliHookLocalOptions } from './hooks-trust.js';

export interface ChatCommandOptions {
  cwd: string;
  model?: string;
  mode?: string;
  resume?: string;
  sandbox: boolean;
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  color: boolean;
  env: Record<string, string | undefined>;
}

const help = 'Commands: /mode agent|plan|ask|debug, /model provider/model, /new, /exit. Ctrl+C cancels a running answer.';

/** `cairn` alone on a terminal: a chat with streaming answers, tool lines, mode and model switches. */
export async function runChatCommand(options: ChatCommandOptions): Promise<number> {
  const model = options.model ?? defaultModel(options.env);
  if (!model && !options.resume) {
    options.stderr.write(`cairn: ${noModelMessage}\n`);
    return 2;
  }
  const readline = createInterface({ input: options.stdin, output: options.stdout, terminal: true });
  let active: AbortController | undefined;
  // Project MCP servers not trusted yet are confirmed on the chat's own prompt (input is read once).
  const mcp = cliMcpLocalOptions({ cwd: options.cwd, env: options.env, stderr: options.stderr, ask: (question) => readline.question(question, active ? { signal: active.signal } : {}) });
  const hooks = cliHookLocalOptions({ cwd: options.cwd, env: options.env, stderr: options.stderr, ask: (question) => readline.question(question, active ? { signal: active.signal } : {}) });
  const local = { cwd: options.cwd, ...mcp, ...hooks };
  const create = () => Agent.create({ ...(model ? { model } : {}), ...(options.mode ? { mode: options.mode } : {}), local: { ...local, ...(options.sandbox ? { sandboxOptions: { enabled: true } } : {}) } });
  let agent: CairnAgent;
  try {
    agent = options.resume ? await Agent.resume(options.resume, { local }) : await create();
  } catch (error) {
    readline.close();
    options.stderr.write(`${describeCliError(error)}\n`);
    return 2;
  }
  let mode = options.mode;
  options.stderr.write(`cairn · ${agent.model?.id ?? 'stored model'} · ${options.cwd}\n${help}\n`);
  let pendingModel: string | undefined;
  readline.on('SIGINT', () => {
    if (active) active.abort();
    else readline.close();
  });
  try {
    for (;;) {
      let line: string;
      try {
        line = (await readline.question(`${mode ?? agent.mode}> `)).trim();
      } catch {
        break;
      }
      if (!line) continue;
      if (line === '/exit' || line === '/quit') break;
      if (line === '/help') {
        options.stderr.write(`${help}\n`);
        continue;
      }
      if (line.startsWith('/mode ')) {
        mode = line.slice(6).trim();
        continue;
      }
      if (line === '/new') {
        agent = await create();
        options.stderr.write(`new agent ${agent.agentId}\n`);
        continue;
      }
      const modelOverride = line.startsWith('/model ') ? line.slice(7).trim() : undefined;
      if (modelOverride) {
        options.stderr.write(`model for the next messages: ${modelOverride}\n`);
      }
      const prompt = modelOverride ? undefined : line;
      if (!prompt) {
        if (modelOverride) pendingModel = modelOverride;
        continue;
      }
      active = new AbortController();
      const renderer = createTextRenderer(options);
      try {
        const run = await agent.send(prompt, {
          ...(mode ? { mode } : {}),
          ...(pendingModel ? { model: pendingModel } : {}),
          signal: active.signal,
          onDelta: ({ update }) => renderer.onDelta(update),
        });
        pendingModel = undefined;
        for await (const message of run.stream()) renderer.onMessage(message);
        const result = await run.wait();
        renderer.finish();
        if (result.status === 'error') options.stderr.write(`cairn: ${result.error?.message}\n`);
        if (result.status === 'cancelled') options.stderr.write('[cancelled]\n');
      } catch (error) {
        renderer.finish();
        options.stderr.write(`${describeCliError(error)}\n`);
      } finally {
        active = undefined;
      }
    }
  } finally {
    readline.close();
    await agent.close();
  }
  options.stderr.write(`resume with: cairn --resume ${agent.agentId}\n`);
  return 0;
}
