// The fake Chat Completions server the loop benchmarks run against: it answers the first `steps`
// requests of a run with one `echo` tool call and the next with text, in the real wire format, and
// notes when each request arrived. It is deliberately lean (no per-request history scan, no stored
// bodies), so a 1,000-step run measures the clients and not the server; the last request of each
// run is checked with the same validator the tests use, after it has been answered.
import { createServer } from 'node:http';
import { validateChatRequest } from '@cairn/core/testing';

export async function startLoopServer() {
  let session = { steps: 0, arrivals: [], lastBody: '' };
  const problems = [];
  const server = createServer((request, response) => {
    const arrivedAt = performance.now();
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const index = session.arrivals.length;
      session.arrivals.push(arrivedAt);
      response.writeHead(200, { 'content-type': 'text/event-stream', 'x-request-id': `req_bench_${index + 1}` });
      const turn = index < session.steps ? { toolCall: { name: 'echo', args: JSON.stringify({ text: `step ${index}` }) } } : { text: 'done' };
      for (const chunk of chunksFor(turn, index)) response.write(`data: ${JSON.stringify(chunk)}\n\n`);
      response.end('data: [DONE]\n\n');
      session.lastBody = Buffer.concat(chunks);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/v1`,
    problems,
    /** Start a run: `steps` tool calls, then text. */
    begin(steps) {
      session = { steps, arrivals: [], lastBody: '' };
    },
    /** End a run: its arrival times; the last request's shape is checked here. */
    end(label) {
      if (session.lastBody.length > 0) {
        const body = JSON.parse(session.lastBody.toString('utf8'));
        problems.push(...validateChatRequest(body).map((problem) => `${label}: ${problem}`));
      }
      return session.arrivals;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function chunksFor(turn, index) {
  const base = { id: `chatcmpl-bench-${index + 1}`, object: 'chat.completion.chunk', created: 1_700_000_000 + index, model: 'gpt-4.1-mini' };
  const chunk = (delta, finish = null) => ({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });
  const out = [chunk({ role: 'assistant', content: '', refusal: null })];
  if (turn.text) out.push(chunk({ content: turn.text }));
  if (turn.toolCall) {
    const id = `call_bench_${index + 1}`;
    out.push(chunk({ tool_calls: [{ index: 0, id, type: 'function', function: { name: turn.toolCall.name, arguments: '' } }] }));
    for (const piece of turn.toolCall.args.match(/.{1,8}/gs) ?? []) out.push(chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] }));
  }
  out.push(chunk({}, turn.toolCall ? 'tool_calls' : 'stop'));
  out.push({ ...base, choices: [], usage: { prompt_tokens: 100 + index, completion_tokens: 20, total_tokens: 120 + index, prompt_tokens_details: { cached_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 0 } } });
  return out;
}
