// The same tool loop driven by the openai SDK directly: the baseline Cairn is compared with.
import OpenAI from 'openai';
import { echoParameters, memorySampler, modelId, systemPrompt } from './loop-tool.mjs';

const client = new OpenAI({ baseURL: process.env.BENCH_BASE_URL, apiKey: 'sk-bench', maxRetries: 0 });
const tools = [{ type: 'function', function: { name: 'echo', description: 'Echo the text.', parameters: echoParameters } }];
const messages = [{ role: 'system', content: systemPrompt }, { role: 'user', content: 'go' }];
const memory = memorySampler();
for (let step = 0; step < Number(process.env.BENCH_STEPS) + 1; step++) {
  const stream = await client.chat.completions.create({ model: modelId, messages, tools, stream: true, stream_options: { include_usage: true } });
  let text = '';
  const calls = [];
  for await (const chunk of stream) {
    const delta = chunk.choices[0]?.delta;
    if (delta?.content) text += delta.content;
    for (const call of delta?.tool_calls ?? []) {
      calls[call.index] ??= { id: call.id, type: 'function', function: { name: call.function?.name ?? '', arguments: '' } };
      calls[call.index].function.arguments += call.function?.arguments ?? '';
    }
  }
  if (calls.length === 0) break;
  messages.push({ role: 'assistant', content: text || null, tool_calls: calls });
  for (const call of calls) messages.push({ role: 'tool', tool_call_id: call.id, content: memory.echo(JSON.parse(call.function.arguments).text) });
}
process.stdout.write(JSON.stringify(memory.report()));
