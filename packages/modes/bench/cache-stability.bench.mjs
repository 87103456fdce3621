// Prompt-cache stability of Cairn's requests, against the built packages (run `pnpm build` first).
// Usage: node bench/cache-stability.bench.mjs [--json]
// For each scenario (20 model requests through the real OpenAI Chat adapter and a local fixture
// server), prints per request the share of the request — characters and o200k tokens — that is a
// byte-identical prefix of the previous request, in cache order (tools, then system and messages).
import { modesPlugin } from '../dist/index.js';
import { runCacheScenario } from './cache-stability-scenario.mjs';

const cases = [
  { label: 'agent', name: 'agent', options: { mode: 'agent' } },
  { label: 'plan', name: 'readOnly', options: { mode: 'plan' } },
  { label: 'ask', name: 'readOnly', options: { mode: 'ask' } },
  { label: 'debug', name: 'readOnly', options: { mode: 'debug' } },
  { label: 'plan -> agent (approved plan)', name: 'planThenAgent', options: {} },
  { label: 'plan -> agent, stableToolList', name: 'planThenAgent', options: { stableToolList: true } },
];

const percent = (value) => `${(value * 100).toFixed(1)}%`;
const results = [];
for (const entry of cases) {
  const { shares } = await runCacheScenario(entry.name, modesPlugin, entry.options);
  const from2 = shares;
  results.push({
    scenario: entry.label,
    requests: shares.length + 1,
    minCharShare: Math.min(...from2.map((share) => share.charShare)),
    meanCharShare: from2.reduce((sum, share) => sum + share.charShare, 0) / from2.length,
    minTokenShare: Math.min(...from2.map((share) => share.tokenShare)),
    meanTokenShare: from2.reduce((sum, share) => sum + share.tokenShare, 0) / from2.length,
    requestsBelow95: from2.filter((share) => share.charShare < 0.95).map((share) => share.request),
    perRequest: shares.map((share) => ({ request: share.request, chars: share.chars, charShare: Number(share.charShare.toFixed(4)), tokenShare: Number(share.tokenShare.toFixed(4)) })),
  });
}

if (process.argv.includes('--json')) console.log(JSON.stringify(results, null, 2));
else {
  console.log('scenario                          | min chars | mean chars | min tokens | mean tokens | requests < 95 % (chars)');
  for (const result of results) {
    console.log(
      `${result.scenario.padEnd(33)} | ${percent(result.minCharShare).padStart(9)} | ${percent(result.meanCharShare).padStart(10)} | ${percent(result.minTokenShare).padStart(10)} | ${percent(result.meanTokenShare).padStart(11)} | ${result.requestsBelow95.join(', ') || 'none'}`,
    );
  }
  for (const result of results) console.log(`\n${result.scenario}: ${result.perRequest.map((share) => `#${share.request} ${percent(share.charShare)}/${percent(share.tokenShare)}`).join('  ')}`);
}
