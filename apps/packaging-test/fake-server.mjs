// An OpenAI-compatible Chat Completions server with scripted answers, for running `cairn` and SDK
// programs without a model: prints its base URL (use it as OPENAI_BASE_URL) and serves until killed.
//   node fake-server.mjs ['[{"text":"hi"},{"toolCalls":[{"name":"write","args":{...}}]}]']
import { startChatCompletionsServer } from '@cairn/core/testing';

const turns = JSON.parse(process.argv[2] ?? '[{"text":"Hello from the fake server."}]');
const server = await startChatCompletionsServer(turns);
process.stdout.write(`${server.url}\n`);
const stop = () => server.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
