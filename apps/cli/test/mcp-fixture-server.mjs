// A dependency-free MCP server over stdio for the CLI's tests: newline-delimited JSON-RPC with
// `initialize`, `tools/list` and `tools/call` (one tool, `echo`). Arguments:
//   --started <file>   append this process's pid to <file> when it starts (proves it was started, or not)
//   --tool <name>      the tool's name (default `echo`)
//   --hang             never answer `initialize` (a server that does not come up)
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const args = process.argv.slice(2);
const option = (flag) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined);
const startedFile = option('--started');
if (startedFile) appendFileSync(startedFile, `${process.pid}\n`);
const toolName = option('--tool') ?? 'echo';
const hang = args.includes('--hang');

const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
const tool = {
  name: toolName,
  description: 'Echo the text back.',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  annotations: { readOnlyHint: true },
};

createInterface({ input: process.stdin }).on('line', (line) => {
  if (!line.trim()) return;
  const request = JSON.parse(line);
  if (request.id === undefined) return; // notifications need no answer
  if (request.method === 'initialize') {
    if (hang) return;
    send({ id: request.id, result: { protocolVersion: request.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'tiny', version: '1.0.0' } } });
  } else if (request.method === 'tools/list') {
    send({ id: request.id, result: { tools: [tool] } });
  } else if (request.method === 'tools/call') {
    send({ id: request.id, result: { content: [{ type: 'text', text: String(request.params.arguments?.text ?? '') }] } });
  } else if (request.method === 'ping') {
    send({ id: request.id, result: {} });
  } else {
    send({ id: request.id, error: { code: -32601, message: `Method not found: ${request.method}` } });
  }
});
