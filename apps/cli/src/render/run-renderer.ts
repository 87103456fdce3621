import type { InteractionUpdate, SDKMessage } from '@cairn/sdk';

export type OutputFormat = 'text' | 'json' | 'stream-json';

export interface RenderTarget {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  color: boolean;
}

const dim = (text: string, color: boolean) => (color ? `\u001b[2m${text}\u001b[22m` : text);
const red = (text: string, color: boolean) => (color ? `\u001b[31m${text}\u001b[39m` : text);
const yellow = (text: string, color: boolean) => (color ? `\u001b[33m${text}\u001b[39m` : text);

/** A one-line summary of a tool call's arguments: the path, the command, the pattern. */
export function summarizeArgs(args: unknown): string {
  if (typeof args !== 'object' || args === null) return String(args ?? '');
  const record = args as Record<string, unknown>;
  for (const key of ['command', 'path', 'target_file', 'pattern', 'query', 'url', 'mode', 'name']) {
    if (typeof record[key] === 'string') return truncate(String(record[key]), 100);
  }
  return truncate(JSON.stringify(args), 100);
}

function truncate(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ');
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/**
 * Text output: the answer streams to stdout as it is written; tool calls are one line each on
 * stderr (so `cairn "..." > answer.md` keeps only the answer).
 */
export function createTextRenderer(target: RenderTarget) {
  let lineOpen = false;
  return {
    onDelta(update: InteractionUpdate): void {
      if (update.type === 'text-delta') {
        target.stdout.write(update.text);
        lineOpen = !update.text.endsWith('\n');
      } else if (update.type === 'tool-call-completed') {
        if (lineOpen) target.stdout.write('\n');
        lineOpen = false;
      } else if (update.type === 'mode-changed') {
        target.stderr.write(dim(`[mode ${update.from} -> ${update.to}]\n`, target.color));
      } else if (update.type === 'retry') {
        target.stderr.write(dim(`[retrying in ${Math.round(update.delayMs / 100) / 10} s: ${update.reason}]\n`, target.color));
      } else if (update.type === 'warning') {
        // Something the run goes on without (an MCP server that did not start or is not trusted).
        if (lineOpen) target.stdout.write('\n');
        lineOpen = false;
        target.stderr.write(`${yellow('!', target.color)} ${update.message}\n`);
      }
    },
    onMessage(message: SDKMessage): void {
      if (message.type !== 'tool_call' || message.status === 'running') return;
      if (lineOpen) {
        target.stdout.write('\n');
        lineOpen = false;
      }
      const mark = message.status === 'error' ? red('✗', target.color) : '✓';
      const detail = message.status === 'error' && message.result ? ` — ${truncate(String(message.result), 160)}` : '';
      target.stderr.write(`${mark} ${message.name} ${dim(summarizeArgs(message.args), target.color)}${detail}\n`);
    },
    finish(): void {
      if (lineOpen) target.stdout.write('\n');
      lineOpen = false;
    },
  };
}
