// What both loops share: the tool, the prompt and the memory samples, so they do the same work.
export const systemPrompt = 'You are a benchmark agent. Call the echo tool until told to stop.';
export const echoParameters = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false };
export const modelId = 'gpt-4.1-mini';

/**
 * The echo tool's body with a resident-memory sample every 10 calls (the tool runs once per step in
 * both loops, so the samples line up by step), and the report a loop prints when it ends. It also
 * notes the CPU time the process had used by the first call (start-up, one request, one answer)
 * and per step after it: unlike wall-clock time, CPU time barely moves when other processes load
 * the machine.
 */
export function memorySampler(steps = Number(process.env.BENCH_STEPS), every = 10) {
  const samples = [];
  // Steps after which to collect garbage and note the live heap (needs node --expose-gc): memory the
  // loop keeps, which resident memory alone does not show (V8 grows its heap lazily).
  const gcSteps = new Set((process.env.BENCH_GC_STEPS ?? '').split(',').filter(Boolean).map(Number));
  const liveHeap = [];
  let calls = 0;
  let cpuMsAtFirstCall;
  let cpuMsAtLastCall;
  const cpuMs = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  return {
    echo(text) {
      calls++;
      // Read twice only: at the first call and at the last (the loop's `steps`-th).
      if (calls === 1) cpuMsAtFirstCall = cpuMs();
      else if (calls === steps) cpuMsAtLastCall = cpuMs();
      if (calls % every === 0) samples.push({ step: calls, rssKb: Math.round(process.memoryUsage.rss() / 1024) });
      if (gcSteps.has(calls) && typeof globalThis.gc === 'function') {
        globalThis.gc();
        liveHeap.push({ step: calls, heapKb: Math.round(process.memoryUsage().heapUsed / 1024) });
      }
      return text;
    },
    report: () => ({
      maxRssKb: process.resourceUsage().maxRSS,
      rssSamples: samples,
      liveHeap,
      cpuMsAtFirstCall,
      // From the first call to the last: whole steps only, start-up excluded.
      cpuMsPerStep: cpuMsAtLastCall === undefined ? undefined : (cpuMsAtLastCall - cpuMsAtFirstCall) / (calls - 1),
    }),
  };
}
