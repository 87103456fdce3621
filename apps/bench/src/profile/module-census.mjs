// `node --import ./module-census.mjs app.mjs`: writes to $CAIRN_MODULE_CENSUS every ES module the
// process loads (from the loader hooks) and, at exit, the CommonJS modules in require's cache.
import { appendFileSync, writeFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';

const output = process.env.CAIRN_MODULE_CENSUS;
if (!output) throw new Error('module-census: set CAIRN_MODULE_CENSUS to the file the census is written to.');
writeFileSync(output, '');
register('./module-census-hooks.mjs', import.meta.url, { data: { output } });
process.on('exit', () => {
  const cache = createRequire(import.meta.url).cache;
  for (const path of Object.keys(cache)) appendFileSync(output, `${JSON.stringify({ url: `file://${path}`, commonjs: true })}\n`);
});
