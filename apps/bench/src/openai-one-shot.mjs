// The baseline of the CLI's one-step run: the same request written directly on the `openai` SDK,
// one streamed Chat Completions call, the answer printed to stdout.
import OpenAI from 'openai';

const client = new OpenAI({ baseURL: process.env.OPENAI_BASE_URL, apiKey: process.env.OPENAI_API_KEY, maxRetries: 0 });
const stream = await client.chat.completions.create({
  model: 'gpt-4.1-mini',
  messages: [{ role: 'user', content: process.argv[2] ?? 'say done' }],
  stream: true,
  stream_options: { include_usage: true },
});
let text = '';
for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
process.stdout.write(`${text}\n`);
