// Loader hooks (run on the loader thread): note every ES module that loads, one line per module.
import { appendFileSync } from 'node:fs';

let output;
export function initialize(data) {
  output = data.output;
}

export async function load(url, context, nextLoad) {
  const started = performance.now();
  const result = await nextLoad(url, context);
  appendFileSync(output, `${JSON.stringify({ url, readMs: performance.now() - started })}\n`);
  return result;
}
