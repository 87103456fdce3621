import { createInterface } from 'node:readline';
import type { CairnAgent } from '@cairn/sdk';
import { writeJsonError, writeJsonLine } from '../render/json-lines.js';
import { resultLine } from '../render/result-message.js';
import { reportCommandFailure } from './command-failure.js';
import { openAgent, UsageError } from './open-agent.js';
import { promptRuns } from './prompt-runs.js';
import { type RunCommandOptions, runOutput } from './run-command.js';

export type StreamInputOptions = Omit<RunCommandOptions, 'prompt' | 'stdin'> & { stdin: NodeJS.ReadableStream; prompt?: string };

/** A user message of Claude Code's stream-json input, or why a line is not one. */
export type ParsedInputLine = { kind: 'prompt'; text: string } | { kind: 'blank' } | { kind: 'invalid'; reason: string };

/**
 * `cairn --input-format stream-json --output-format stream-json`: every stdin line is a user message
 * (`{"type":"user","message":{"role":"user","content":"…"}}`), run one after another on one agent,
 * each answered by its messages and one `result` line; a line that is not a user message gets an
 * error `result` and the session goes on. Exit code: 0 when every line ran and finished.
 */
export async function runStreamInputCommand(options: StreamInputOptions): Promise<number> {
  let agent: CairnAgent | undefined;
  try {
    if (options.outputFormat !== 'stream-json') throw new UsageError('--input-format stream-json needs --output-format stream-json.');
    if (options.prompt) throw new UsageError('--input-format stream-json reads the prompts from stdin, one JSON line each: drop the prompt argument.');
    agent = await openAgent(options);
    const code = await runLines(agent, options);
    await agent.close();
    return code;
  } catch (error) {
    await agent?.close().catch(() => undefined);
    return reportCommandFailure(error, options, agent?.agentId);
  }
}

async function runLines(agent: CairnAgent, options: StreamInputOptions): Promise<number> {
  const output = runOutput(options, agent.agentId);
  let code = 0;
  let lineNumber = 0;
  for await (const line of createInterface({ input: options.stdin, crlfDelay: Number.POSITIVE_INFINITY })) {
    lineNumber += 1;
    const parsed = parseInputLine(line);
    if (parsed.kind === 'blank') continue;
    if (parsed.kind === 'invalid') {
      writeJsonError(options.stdout, `stdin line ${lineNumber}: ${parsed.reason}`, { sessionId: agent.agentId, code: 'invalid_input' });
      code = 1;
      continue;
    }
    const runs = await promptRuns(agent, parsed.text, options, output);
    writeJsonLine(options.stdout, resultLine(agent.agentId, runs));
    const status = runs.at(-1)?.result.status;
    if (status === 'cancelled') return 130;
    if (status !== 'finished') code = 1;
  }
  return code;
}

const expectedShape = 'expected {"type":"user","message":{"role":"user","content":"…"}}';

/** One stdin line as a user message: content is a string or text blocks, as in Claude Code's input. */
export function parseInputLine(line: string): ParsedInputLine {
  if (!line.trim()) return { kind: 'blank' };
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return { kind: 'invalid', reason: `not JSON (${(error as Error).message}); ${expectedShape}` };
  }
  const record = value as { type?: unknown; message?: { role?: unknown; content?: unknown } } | null;
  if (typeof record !== 'object' || record === null || record.type !== 'user') return { kind: 'invalid', reason: `type must be "user"; ${expectedShape}` };
  if (record.message?.role !== undefined && record.message.role !== 'user') return { kind: 'invalid', reason: `message.role must be "user"; ${expectedShape}` };
  const text = contentText(record.message?.content);
  if (typeof text !== 'string') return { kind: 'invalid', reason: text.reason };
  return text.trim() ? { kind: 'prompt', text } : { kind: 'invalid', reason: 'the message has no text' };
}

function contentText(content: unknown): string | { reason: string } {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return { reason: `message.content must be a string or an array of text blocks; ${expectedShape}` };
  const texts: string[] = [];
  for (const block of content as Array<{ type?: unknown; text?: unknown }>) {
    if (block?.type !== 'text' || typeof block.text !== 'string') return { reason: `only {"type":"text","text":"…"} content blocks are supported, got ${JSON.stringify(block?.type ?? block)}` };
    texts.push(block.text);
  }
  return texts.join('\n');
}
