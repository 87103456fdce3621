import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { defineTool, type ToolDefinition } from '../src/index.js';
import { createCairn } from '../src/node.js';
import { type ScriptedTurn, scriptedModel, scriptedProvider } from '../src/testing.js';

export async function tempWorkspace(prefix = 'cairn-run-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

/** A tool that echoes its input, records calls, and optionally waits. */
export function echoTool(options: { name?: string; delayMs?: number; readOnly?: boolean; log?: string[] } = {}): ToolDefinition {
  const name = options.name ?? 'echo';
  return defineTool({
    id: name,
    name,
    description: 'Echo the text back.',
    inputSchema: z.object({ text: z.string() }),
    readOnly: options.readOnly ?? true,
    category: 'custom',
    async execute(input: { text: string }, context) {
      options.log?.push(`start:${input.text}`);
      if (options.delayMs) {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(resolve, options.delayMs);
          context.signal.addEventListener('abort', () => {
            clearTimeout(timer);
            reject(context.signal.reason);
          }, { once: true });
        });
      }
      options.log?.push(`end:${input.text}`);
      return `echo: ${input.text}`;
    },
  });
}

export function setup(turns: ScriptedTurn[], tools: ToolDefinition[] = [echoTool()], modelOptions: { repeatLast?: boolean } = {}) {
  const model = scriptedModel(turns, modelOptions);
  const { Agent, Cairn, registry } = createCairn({ plugins: [{ name: 'test', providers: [scriptedProvider({ 'scripted-model': model })], tools }] });
  return { model, Agent, Cairn, registry };
}
