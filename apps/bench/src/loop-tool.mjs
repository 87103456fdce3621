// What both loops share: the tool, the prompt and the memory samples, so they do the same work.
export const systemPrompt = 'You are a benchmark agent. Call the echo tool until told to stop.';
export const echoParameters = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false };
export const modelId = 'gpt-4.1-mini';

/**
 * The echo tool's body with a resident-memory sample every 10 calls (the tool runs once per step in
 * both loops, so the samples line up by step), and the report a loop prints when it ends. It also
 * notes the CPU time the process had used by the first call (start-up, one request, one answer):
 * unlike wall-clock time it barely moves when other processes load the machine.
 */
export function memorySampler(every = 10) {
  const samples = [];
  let calls = 0;
  let cpuMsAtFirstCall;
  return {
    echo(text) {
      calls++;
      if (calls === 1) {
        const { user, system } = process.cpuUsage();
        cpuMsAtFirstCall = (user + system) / 1000;
      }
      if (calls % every === 0) samples.push({ step: calls, rssKb: Math.round(process.memoryUsage.rss() / 1024) });
      return text;
    },
    report: () => ({ maxRssKb: process.resourceUsage().maxRSS, rssSamples: samples, cpuMsAtFirstCall }),
  };
}
