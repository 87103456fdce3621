import type { HeadlessLine } from './stream-json.js';
import { errorResultLine } from './result-message.js';

/** One JSON object on one line: what `json` prints once and `stream-json` prints per message. */
export function writeJsonLine(stdout: NodeJS.WritableStream, line: HeadlessLine): void {
  stdout.write(`${JSON.stringify(line)}\n`);
}

/** Whether the command line asks for `json` or `stream-json`, read before (or without) parsing it. */
export function jsonOutputRequested(argv: string[]): boolean {
  for (const [index, arg] of argv.entries()) {
    const value = arg.startsWith('--output-format=') ? arg.slice('--output-format='.length) : arg === '--output-format' ? argv[index + 1] : undefined;
    if (value === 'json' || value === 'stream-json') return true;
  }
  return false;
}

/** A failure before any run, as the `result` object a JSON consumer parses (the exit code says the rest). */
export function writeJsonError(stdout: NodeJS.WritableStream, message: string, options: { sessionId?: string; code?: string } = {}): void {
  writeJsonLine(stdout, errorResultLine(message.replace(/^cairn: /, '').replace(/^error: /, ''), options.sessionId ?? '', options.code));
}
